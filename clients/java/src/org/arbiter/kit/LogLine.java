package org.arbiter.kit;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One game-log line per receipt: {@code ARB<TAB><base64url, no padding, of the UTF-8 canonical
 * commit>}, and one for the server's keys and key log: {@code ARBKEYS<TAB><base64url of the
 * canonical GET /keys document>}. Every client that reads the log (the opponent's, every
 * replay) decodes the line and checks the receipt itself; the chat line it prints comes from
 * the signed record only.
 */
public final class LogLine {
    private LogLine() {}

    public static final String PREFIX = "ARB\t";
    /** The keys line: GET /keys (keys and key log) in the game log, see {@link #encodeKeys}. */
    public static final String KEYS_PREFIX = "ARBKEYS\t";
    /** Far above any commit the server accepts (a request body is at most 64 KB). */
    public static final int MAX_LINE = 200_000;
    private static final Pattern BASE64URL = Pattern.compile("^[A-Za-z0-9_-]*$");

    public static String encode(Receipt receipt) throws Canonical.CanonicalException {
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(receipt.canonicalText().getBytes(StandardCharsets.UTF_8));
    }

    public static boolean isArbiterLine(String line) {
        return line != null && line.startsWith(PREFIX);
    }

    /** A line of this kit: a receipt line or a keys line. */
    public static boolean isKitLine(String line) {
        return isArbiterLine(line) || isKeysLine(line);
    }

    /**
     * What a client does with a kit line it reads from the game log (its own, the opponent's,
     * a replay's): a keys line is learnt into the verifier's keys, a receipt line is checked.
     * Returns the one chat line to show.
     */
    public static String read(String line, Verifier verifier) {
        if (isKeysLine(line)) return learnKeys(line, verifier.keys());
        return chatLine(check(line, verifier));
    }

    /** Decodes a log line: strict base64url, strict UTF-8, strict JSON, and the canonical form itself. */
    public static Receipt decode(String line) throws Receipt.MalformedReceipt {
        if (!isArbiterLine(line)) throw new Receipt.MalformedReceipt("not an Arbiter log line");
        String text = strictText(line, PREFIX);
        Receipt receipt = Receipt.parse(text);
        try {
            if (!receipt.canonicalText().equals(text)) throw new Receipt.MalformedReceipt("the commit is not in canonical form");
        } catch (Canonical.CanonicalException e) {
            throw new Receipt.MalformedReceipt("the commit cannot be put in canonical form: " + e.getMessage());
        }
        return receipt;
    }

    /** The UTF-8 text after the prefix: strict base64url without padding, written canonically, and strict UTF-8. */
    private static String strictText(String line, String prefix) throws Receipt.MalformedReceipt {
        if (line.length() > MAX_LINE) throw new Receipt.MalformedReceipt("log line too long");
        String body = line.substring(prefix.length());
        if (!BASE64URL.matcher(body).matches() || body.length() % 4 == 1) throw new Receipt.MalformedReceipt("not base64url without padding");
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(body);
        } catch (IllegalArgumentException e) {
            throw new Receipt.MalformedReceipt("not base64url: " + e.getMessage());
        }
        if (!Base64.getUrlEncoder().withoutPadding().encodeToString(bytes).equals(body)) throw new Receipt.MalformedReceipt("base64url not written canonically");
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new Receipt.MalformedReceipt("not UTF-8");
        }
    }

    /** Decodes and checks a log line in one step; anything malformed becomes an INVALID check. */
    public static Verifier.Check check(String line, Verifier verifier) {
        try {
            return verifier.check(decode(line));
        } catch (Receipt.MalformedReceipt e) {
            return Verifier.malformed(e.getMessage());
        }
    }

    /** The first 8 characters of a fingerprint's thumbprint, as players see it. */
    public static String shortFingerprint(String fingerprint) {
        if (fingerprint == null) return "unknown key";
        String thumb = fingerprint.startsWith("ed25519:") ? fingerprint.substring(8) : fingerprint;
        return "ed25519:" + (thumb.length() > 8 ? thumb.substring(0, 8) : thumb);
    }

    /**
     * The chat line for a check: {@code ✓ #12 allied Roll "purpose" 2d6: 3 5 [ed25519:abcdefgh]}
     * when everything passed, or a loud failure naming what failed. Always one line, whatever
     * the receipt holds.
     */
    public static String chatLine(Verifier.Check check) {
        Receipt r = check.receipt;
        String what = r == null ? "unreadable Arbiter line" : "#" + r.seq + " " + r.actor + " " + r.commandType + summary(r);
        String line;
        switch (check.status) {
            case OK:
                line = "✓ " + what + " [" + signer(check) + "]";
                break;
            case GAP:
                line = "⚠ ARBITER GAP ⚠ " + what + " [" + signer(check) + "] — " + String.join("; ", check.problems);
                break;
            case FORK:
                line = "✗✗ ARBITER FORK ✗✗ " + what + " — " + String.join("; ", check.problems) + " — do not accept this roll";
                break;
            default:
                line = "✗✗ ARBITER CHECK FAILED ✗✗ " + what + " — " + String.join("; ", check.problems) + " — do not accept this roll";
        }
        return TextLine.escape(line);
    }

    /** The signer as players see it: the short fingerprint, and "via key log #n" when the module's pins reach it only through the key log. */
    static String signer(Verifier.Check check) {
        return shortFingerprint(check.signerFingerprint) + (check.signerVia > 0 ? " via key log #" + check.signerVia : "");
    }

    /**
     * The keys line: {@code ARBKEYS<TAB><base64url of the UTF-8 canonical {"keys":[…],"log":[…]}>},
     * the server's GET /keys put into the game log, so that every client and every replay can
     * walk the key log from the module's pins without the network (docs/vassal.md). Nothing in
     * it is trusted by itself: its keys count only when a pin reaches them through its log.
     */
    public static String encodeKeys(Map<String, Object> keysDocument) throws Canonical.CanonicalException {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("keys", keysDocument.get("keys") == null ? List.of() : keysDocument.get("keys"));
        doc.put("log", keysDocument.get("log") == null ? List.of() : keysDocument.get("log"));
        return KEYS_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(Canonical.write(doc).getBytes(StandardCharsets.UTF_8));
    }

    public static boolean isKeysLine(String line) {
        return line != null && line.startsWith(KEYS_PREFIX);
    }

    /** Decodes a keys line as strictly as a receipt line: base64url, UTF-8, strict JSON, canonical form. */
    public static Map<String, Object> decodeKeys(String line) throws Receipt.MalformedReceipt {
        if (!isKeysLine(line)) throw new Receipt.MalformedReceipt("not an Arbiter keys line");
        String text = strictText(line, KEYS_PREFIX);
        Map<String, Object> doc;
        try {
            doc = Json.parseObject(text);
            if (!Canonical.write(doc).equals(text)) throw new Receipt.MalformedReceipt("the keys document is not in canonical form");
        } catch (Json.JsonException e) {
            throw new Receipt.MalformedReceipt("not strict JSON: " + e.getMessage());
        } catch (Canonical.CanonicalException e) {
            throw new Receipt.MalformedReceipt("the keys document cannot be put in canonical form: " + e.getMessage());
        }
        if (!(doc.get("keys") instanceof List) || !(doc.get("log") instanceof List)) throw new Receipt.MalformedReceipt("the keys document has no keys or log list");
        return doc;
    }

    /**
     * Reads a keys line into {@code keys} and says in one chat line what it changed: which keys
     * the module's pins now reach through the key log, or loudly which statement was refused.
     */
    public static String learnKeys(String line, TrustedKeys keys) {
        Map<String, Object> doc;
        try {
            doc = decodeKeys(line);
        } catch (Receipt.MalformedReceipt e) {
            return TextLine.escape("✗✗ ARBITER KEY LOG REFUSED ✗✗ unreadable Arbiter keys line: " + e.getMessage());
        }
        Map<String, Object> withoutLog = new LinkedHashMap<>(doc);
        withoutLog.remove("log");
        keys.learnAll(withoutLog);
        return keyLogChatLine(keys.learnLog(doc.get("log")));
    }

    /** One chat line for a key log walk: the keys it made trusted, or loudly the statement it refused. */
    public static String keyLogChatLine(KeyLog.Walk walk) {
        StringBuilder reached = new StringBuilder();
        for (Map.Entry<String, Integer> e : walk.trusted.entrySet()) {
            if (e.getValue() == 0) continue;
            reached.append(reached.length() == 0 ? "" : ", ").append(shortFingerprint(e.getKey())).append(" via key log #").append(e.getValue());
        }
        String line;
        if (walk.failure != null) {
            line = "✗✗ ARBITER KEY LOG REFUSED ✗✗ " + walk.failure.describe() + (reached.length() == 0 ? "" : "; before it, trusted: " + reached)
                    + " — receipts signed by keys after it will fail";
        } else if (reached.length() == 0) {
            long rotations = walk.untrustedStatements.size() + walk.verified.stream().filter(h -> h.trusted).count();
            line = rotations == 0
                    ? "✓ Arbiter keys received: no key rotation so far; this module trusts its pinned keys"
                    : "✓ Arbiter keys received: " + rotations + " key rotation" + (rotations == 1 ? "" : "s") + " in the server's key log, none from a key this module pins; it trusts its pinned keys";
        } else {
            line = "✓ Arbiter keys: the server's key log, walked from this module's pins, also trusts " + reached;
        }
        return TextLine.escape(line);
    }

    /**
     * The chat line when the server gave no answer: there is no result, and none is made up
     * locally. (After a timeout the server may have rolled; the next try fetches that same roll.)
     */
    public static String unavailableLine(String what, String reason) {
        return TextLine.escape("✗ Arbiter server unreachable (" + reason + "): no result for " + what + ". This module never rolls locally; "
                + "the next try fetches this same roll from the server, it is never rolled twice.");
    }

    /** A short description from signed fields only: purpose or combat, dice faces, total or result. */
    static String summary(Receipt r) {
        StringBuilder out = new StringBuilder();
        List<Map<String, Object>> events = r.events();
        Map<?, ?> data = events.isEmpty() ? null : asMap(events.get(0).get("data"));
        Map<?, ?> payload = asMap(r.command().get("payload"));
        if ("RevealBeacon".equals(r.commandType) && payload != null && payload.get("pending") instanceof Json.JsonNumber) {
            out.append(" of #").append(payload.get("pending")).append(" (drand round ").append(payload.get("round")).append(')');
        }
        String purpose = firstString("purpose", data, payload);
        if (purpose != null) out.append(' ').append(quote(purpose));
        // Quoted as a purpose is: a combat id is the player's text, and must not pass for a result or a fingerprint.
        String combat = firstString("combatId", data, payload);
        if (combat != null) out.append(' ').append(quote(combat));
        String attack = firstString("attackId", data, payload);
        if (attack != null) out.append(' ').append(quote(attack));
        Object expression = payload == null ? null : payload.get("dice");
        if (expression instanceof String) out.append(' ').append((String) expression);
        if (data != null && data.get("odds") instanceof String) {
            out.append(' ').append((String) data.get("odds"));
            if (data.get("column") instanceof String) out.append(", column ").append((String) data.get("column"));
        }
        if (data != null && events.size() == 1 && "BeaconRollPending".equals(events.get(0).get("type"))) {
            out.append(" waits for drand round ").append(data.get("round")).append(" at ").append(data.get("roundAt"));
        }
        if (!r.dice.isEmpty()) out.append(r.dice.size() == 1 ? ", die " : ", dice ").append(r.dieFaces());
        if (data != null) {
            if (data.get("total") instanceof Json.JsonNumber) out.append(" = ").append(data.get("total"));
            else if (data.get("code") instanceof String) out.append(" -> ").append((String) data.get("code"));
            else if (!r.dice.isEmpty() && events.get(0).get("type") instanceof String) out.append(" -> ").append((String) events.get(0).get("type"));
        }
        return out.toString();
    }

    private static Map<?, ?> asMap(Object o) {
        return o instanceof Map ? (Map<?, ?>) o : null;
    }

    private static String firstString(String key, Map<?, ?>... maps) {
        for (Map<?, ?> m : maps) if (m != null && m.get(key) instanceof String) return (String) m.get(key);
        return null;
    }

    private static String quote(String s) {
        try {
            StringBuilder out = new StringBuilder();
            Canonical.writeString(s, out);
            return out.toString();
        } catch (Canonical.CanonicalException e) {
            return "\"?\"";
        }
    }
}
