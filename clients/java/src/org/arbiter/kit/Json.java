package org.arbiter.kit;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Strict RFC 8259 JSON for text nobody vouches for (a receipt from the network, a line from
 * a game log). Values are {@code null}, {@link Boolean}, {@link String}, {@link JsonNumber},
 * {@code List<Object>} and {@code Map<String, Object>} (insertion order kept, read-only).
 * Refused: a key twice in one object, a lone surrogate (escaped or raw), raw control
 * characters in strings, nesting deeper than {@link #MAX_DEPTH}, anything after the value.
 */
public final class Json {
    public static final int MAX_DEPTH = 256;

    private final String text;
    private int pos;

    private Json(String text) {
        this.text = text;
    }

    /** A JSON number kept as written, so integers survive exactly. */
    public static final class JsonNumber {
        public final BigDecimal value;

        public JsonNumber(BigDecimal value) {
            this.value = value;
        }

        public static JsonNumber of(long n) {
            return new JsonNumber(BigDecimal.valueOf(n));
        }

        /** The value as an exact integer, or null when it has a fraction or more than 30 digits. */
        public BigInteger integerOrNull() {
            if (value.signum() != 0 && value.precision() - value.scale() > 30) return null;
            try {
                return value.toBigIntegerExact();
            } catch (ArithmeticException e) {
                return null;
            }
        }

        /** The value as a long, or throws when it is not an integer in range. */
        public long longValueExact() {
            return value.longValueExact();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof JsonNumber && ((JsonNumber) o).value.compareTo(value) == 0;
        }

        @Override
        public int hashCode() {
            return value.stripTrailingZeros().hashCode();
        }

        @Override
        public String toString() {
            return value.toString();
        }
    }

    public static final class JsonException extends Exception {
        private static final long serialVersionUID = 1L;
        public final int position;

        public JsonException(String message, int position) {
            super(message + " at character " + position);
            this.position = position;
        }
    }

    public static Object parse(String text) throws JsonException {
        if (text == null) throw new JsonException("no text", 0);
        Json reader = new Json(text);
        reader.skipWhitespace();
        Object value = reader.readValue(0);
        reader.skipWhitespace();
        if (reader.pos != text.length()) throw new JsonException("unexpected text after the JSON value", reader.pos);
        return value;
    }

    /** Parses and requires an object. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(String text) throws JsonException {
        Object value = parse(text);
        if (!(value instanceof Map)) throw new JsonException("expected a JSON object", 0);
        return (Map<String, Object>) value;
    }

    private Object readValue(int depth) throws JsonException {
        if (pos >= text.length()) throw new JsonException("unexpected end of text", pos);
        char c = text.charAt(pos);
        switch (c) {
            case '{':
                return readObject(depth + 1);
            case '[':
                return readArray(depth + 1);
            case '"':
                return readString();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) return readNumber();
                throw new JsonException("unexpected character '" + printable(c) + "'", pos);
        }
    }

    private Object literal(String word, Object value) throws JsonException {
        if (!text.startsWith(word, pos)) throw new JsonException("unexpected word", pos);
        pos += word.length();
        return value;
    }

    private Map<String, Object> readObject(int depth) throws JsonException {
        if (depth > MAX_DEPTH) throw new JsonException("nested deeper than " + MAX_DEPTH + " levels", pos);
        pos++;
        Map<String, Object> out = new LinkedHashMap<>();
        skipWhitespace();
        if (peek() == '}') {
            pos++;
            return Collections.unmodifiableMap(out);
        }
        for (;;) {
            skipWhitespace();
            if (peek() != '"') throw new JsonException("expected a key", pos);
            int keyAt = pos;
            String key = readString();
            if (out.containsKey(key)) throw new JsonException("duplicate key \"" + Canonical.escapeForMessage(key) + "\"", keyAt);
            skipWhitespace();
            if (peek() != ':') throw new JsonException("expected ':'", pos);
            pos++;
            skipWhitespace();
            out.put(key, readValue(depth));
            skipWhitespace();
            char c = peek();
            pos++;
            if (c == '}') return Collections.unmodifiableMap(out);
            if (c != ',') throw new JsonException("expected ',' or '}'", pos - 1);
        }
    }

    private List<Object> readArray(int depth) throws JsonException {
        if (depth > MAX_DEPTH) throw new JsonException("nested deeper than " + MAX_DEPTH + " levels", pos);
        pos++;
        List<Object> out = new ArrayList<>();
        skipWhitespace();
        if (peek() == ']') {
            pos++;
            return Collections.unmodifiableList(out);
        }
        for (;;) {
            skipWhitespace();
            out.add(readValue(depth));
            skipWhitespace();
            char c = peek();
            pos++;
            if (c == ']') return Collections.unmodifiableList(out);
            if (c != ',') throw new JsonException("expected ',' or ']'", pos - 1);
        }
    }

    private String readString() throws JsonException {
        int start = pos;
        pos++; // opening quote
        StringBuilder out = new StringBuilder();
        for (;;) {
            if (pos >= text.length()) throw new JsonException("unterminated string", start);
            char c = text.charAt(pos++);
            if (c == '"') break;
            if (c < 0x20) throw new JsonException("raw control character in a string", pos - 1);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (pos >= text.length()) throw new JsonException("unterminated string", start);
            char e = text.charAt(pos++);
            switch (e) {
                case '"': out.append('"'); break;
                case '\\': out.append('\\'); break;
                case '/': out.append('/'); break;
                case 'b': out.append('\b'); break;
                case 'f': out.append('\f'); break;
                case 'n': out.append('\n'); break;
                case 'r': out.append('\r'); break;
                case 't': out.append('\t'); break;
                case 'u': {
                    if (pos + 4 > text.length()) throw new JsonException("bad \\u escape", pos - 2);
                    int code = 0;
                    for (int i = 0; i < 4; i++) {
                        int d = Character.digit(text.charAt(pos + i), 16);
                        if (d < 0) throw new JsonException("bad \\u escape", pos - 2);
                        code = code * 16 + d;
                    }
                    pos += 4;
                    out.append((char) code);
                    break;
                }
                default:
                    throw new JsonException("bad escape \\" + printable(e), pos - 2);
            }
        }
        String s = out.toString();
        int lone = Canonical.loneSurrogateAt(s);
        if (lone >= 0) throw new JsonException("lone surrogate in a string", start);
        return s;
    }

    private JsonNumber readNumber() throws JsonException {
        int start = pos;
        if (peek() == '-') pos++;
        if (peek() == '0') {
            pos++;
        } else if (isDigit(peek())) {
            while (isDigit(peek())) pos++;
        } else {
            throw new JsonException("bad number", start);
        }
        if (peek() == '.') {
            pos++;
            if (!isDigit(peek())) throw new JsonException("bad number", start);
            while (isDigit(peek())) pos++;
        }
        if (peek() == 'e' || peek() == 'E') {
            pos++;
            if (peek() == '+' || peek() == '-') pos++;
            if (!isDigit(peek())) throw new JsonException("bad number", start);
            int expStart = pos;
            while (isDigit(peek())) pos++;
            if (pos - expStart > 6) throw new JsonException("number exponent too large", start);
        }
        return new JsonNumber(new BigDecimal(text.substring(start, pos)));
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\uffff';
    }

    private void skipWhitespace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
            pos++;
        }
    }

    private static String printable(char c) {
        return c < 0x20 || c > 0x7e ? String.format("\\u%04x", (int) c) : String.valueOf(c);
    }
}
