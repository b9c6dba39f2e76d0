package org.arbiter.kit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One commit as received (fairness-v1 §5): the parsed record, untouched, plus typed views of
 * its fields. Nothing here is trusted until {@link #selfCheck} and {@link Verifier} say so.
 */
public final class Receipt {
    /** The whole record as parsed: what the hash is computed from. */
    public final Map<String, Object> record;
    public final String gameId;
    public final long seq;
    public final String commandId;
    public final String actor;
    public final String commandType;
    public final String kid;
    public final String prevHash;
    public final String hash;
    public final String signature;
    public final String recordedAt;
    /** Dice in draw order, as {sides, value} pairs. */
    public final List<int[]> dice;

    public static final class MalformedReceipt extends Exception {
        private static final long serialVersionUID = 1L;

        public MalformedReceipt(String message) {
            super(message);
        }
    }

    private Receipt(Map<String, Object> record) throws MalformedReceipt {
        this.record = record;
        this.gameId = string(record, "gameId");
        this.seq = integer(record.get("seq"), "seq");
        if (seq < 1) throw new MalformedReceipt("seq must be at least 1");
        this.commandId = string(record, "commandId");
        this.actor = string(record, "actor");
        Object command = record.get("command");
        if (!(command instanceof Map)) throw new MalformedReceipt("command is not an object");
        this.commandType = string((Map<?, ?>) command, "type");
        this.kid = string(record, "kid");
        this.prevHash = string(record, "prevHash");
        this.hash = string(record, "hash");
        this.signature = string(record, "signature");
        this.recordedAt = string(record, "recordedAt");
        if (!(record.get("events") instanceof List)) throw new MalformedReceipt("events is not an array");
        Object diceValue = record.get("dice");
        if (!(diceValue instanceof List)) throw new MalformedReceipt("dice is not an array");
        List<int[]> parsed = new ArrayList<>();
        for (Object die : (List<?>) diceValue) {
            if (!(die instanceof Map)) throw new MalformedReceipt("a die is not an object");
            Map<?, ?> d = (Map<?, ?>) die;
            long sides = integer(d.get("sides"), "dice[].sides");
            long value = integer(d.get("value"), "dice[].value");
            if (sides < 2 || sides > 1000 || value < 1 || value > sides) throw new MalformedReceipt("a die shows " + value + " of " + sides);
            parsed.add(new int[] {(int) sides, (int) value});
        }
        this.dice = Collections.unmodifiableList(parsed);
    }

    /** Reads a receipt from JSON text (strict: duplicate keys are refused). */
    public static Receipt parse(String json) throws MalformedReceipt {
        try {
            return of(Json.parseObject(json));
        } catch (Json.JsonException e) {
            throw new MalformedReceipt("not strict JSON: " + e.getMessage());
        }
    }

    public static Receipt of(Map<String, Object> record) throws MalformedReceipt {
        return new Receipt(record);
    }

    /** The record's events, as parsed. */
    @SuppressWarnings("unchecked")
    public List<Map<String, Object>> events() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object e : (List<Object>) record.get("events")) if (e instanceof Map) out.add((Map<String, Object>) e);
        return out;
    }

    @SuppressWarnings("unchecked")
    public Map<String, Object> command() {
        return (Map<String, Object>) record.get("command");
    }

    /** The record's canonical (RFC 8785) text, hash and signature included: what a log line carries. */
    public String canonicalText() throws Canonical.CanonicalException {
        return Canonical.write(record);
    }

    /** fairness-v1 §5: hex(SHA-256(UTF-8(JCS(record without hash and signature)))). */
    public String computeHash() throws Canonical.CanonicalException {
        Map<String, Object> unsigned = new LinkedHashMap<>(record);
        unsigned.remove("hash");
        unsigned.remove("signature");
        return Crypto.hex(Crypto.sha256(Canonical.write(unsigned).getBytes(StandardCharsets.UTF_8)));
    }

    /** A copy of this receipt with some members replaced (for tests and tools; the copy is not re-checked). */
    public Receipt with(Map<String, Object> replacements) throws MalformedReceipt {
        Map<String, Object> copy = new LinkedHashMap<>(record);
        copy.putAll(replacements);
        return new Receipt(Collections.unmodifiableMap(copy));
    }

    public String dieFaces() {
        StringBuilder out = new StringBuilder();
        for (int[] die : dice) {
            if (out.length() > 0) out.append(' ');
            out.append(die[1]);
        }
        return out.toString();
    }

    private static String string(Map<?, ?> map, String name) throws MalformedReceipt {
        Object value = map.get(name);
        if (!(value instanceof String)) throw new MalformedReceipt(name + " is missing or not a string");
        return (String) value;
    }

    private static long integer(Object value, String name) throws MalformedReceipt {
        if (!(value instanceof Json.JsonNumber)) throw new MalformedReceipt(name + " is missing or not a number");
        try {
            return ((Json.JsonNumber) value).longValueExact();
        } catch (ArithmeticException e) {
            throw new MalformedReceipt(name + " is not an integer");
        }
    }
}
