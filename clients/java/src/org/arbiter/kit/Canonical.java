package org.arbiter.kit;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * RFC 8785 (JCS) canonical JSON for the values Arbiter commits hold: null, booleans, strings,
 * integers, arrays and objects. Keys are sorted by UTF-16 code units ({@link String#compareTo}
 * compares exactly those), strings are escaped as ECMAScript's JSON.stringify escapes them.
 * Numbers: integers of magnitude up to 2^53 - 1 (what ECMAScript writes digit for digit);
 * anything else is refused rather than written differently from the server.
 */
public final class Canonical {
    private Canonical() {}

    private static final BigInteger MAX_SAFE = BigInteger.valueOf(9007199254740991L);

    public static final class CanonicalException extends Exception {
        private static final long serialVersionUID = 1L;

        public CanonicalException(String message) {
            super(message);
        }
    }

    public static String write(Object value) throws CanonicalException {
        StringBuilder out = new StringBuilder();
        write(value, out, 0);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out, int depth) throws CanonicalException {
        if (depth > Json.MAX_DEPTH) throw new CanonicalException("nested too deep");
        if (value == null) {
            out.append("null");
        } else if (value instanceof Boolean) {
            out.append(((Boolean) value) ? "true" : "false");
        } else if (value instanceof String) {
            writeString((String) value, out);
        } else if (value instanceof Json.JsonNumber) {
            writeNumber(((Json.JsonNumber) value).value, out);
        } else if (value instanceof Integer || value instanceof Long) {
            writeNumber(BigDecimal.valueOf(((Number) value).longValue()), out);
        } else if (value instanceof List) {
            out.append('[');
            boolean first = true;
            for (Object item : (List<?>) value) {
                if (!first) out.append(',');
                first = false;
                write(item, out, depth + 1);
            }
            out.append(']');
        } else if (value instanceof Map) {
            Map<?, ?> map = (Map<?, ?>) value;
            List<String> keys = new ArrayList<>();
            for (Object key : map.keySet()) {
                if (!(key instanceof String)) throw new CanonicalException("object key is not a string");
                keys.add((String) key);
            }
            Collections.sort(keys); // String.compareTo compares UTF-16 code units (RFC 8785 §3.2.3)
            out.append('{');
            boolean first = true;
            for (String key : keys) {
                if (!first) out.append(',');
                first = false;
                writeString(key, out);
                out.append(':');
                write(map.get(key), out, depth + 1);
            }
            out.append('}');
        } else {
            throw new CanonicalException("cannot write a " + value.getClass().getSimpleName());
        }
    }

    private static void writeNumber(BigDecimal n, StringBuilder out) throws CanonicalException {
        if (n.signum() == 0) {
            out.append('0'); // -0, 0.0, 0e99: ECMAScript writes 0
            return;
        }
        BigDecimal stripped = n.stripTrailingZeros();
        if (stripped.scale() > 0) throw new CanonicalException("a number with a fraction (" + shortText(n) + ") is not part of an Arbiter commit");
        // precision - scale = the number of integer digits; checked before the integer is ever expanded (1e999999).
        if (stripped.precision() - stripped.scale() > 16) throw new CanonicalException("integer " + shortText(n) + " is beyond 2^53 - 1");
        BigInteger integer = stripped.toBigIntegerExact();
        if (integer.abs().compareTo(MAX_SAFE) > 0) throw new CanonicalException("integer " + integer + " is beyond 2^53 - 1");
        out.append(integer.toString());
    }

    private static String shortText(BigDecimal n) {
        String text = n.toString();
        return text.length() > 24 ? text.substring(0, 21) + "..." : text;
    }

    /** JSON.stringify's escaping: the two-character escapes, \\u00xx for other controls, the rest as is. */
    static void writeString(String s, StringBuilder out) throws CanonicalException {
        if (loneSurrogateAt(s) >= 0) throw new CanonicalException("lone surrogate in a string");
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\b': out.append("\\b"); break;
                case '\f': out.append("\\f"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
            }
        }
        out.append('"');
    }

    /** The index of the first unpaired surrogate, or -1. */
    public static int loneSurrogateAt(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return i;
            }
            if (Character.isLowSurrogate(c)) return i;
        }
        return -1;
    }

    /** A string for an error message: control characters escaped, never more than 60 characters. */
    static String escapeForMessage(String s) {
        String line = TextLine.escape(s);
        return line.length() > 60 ? line.substring(0, 57) + "..." : line;
    }
}
