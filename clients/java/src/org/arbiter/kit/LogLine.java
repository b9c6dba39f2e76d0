package org.arbiter.kit;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One game-log line per receipt: {@code ARB<TAB><base64url, no padding, of the UTF-8 canonical
 * commit>}. Every client that reads the log (the opponent's, every replay) decodes the line and
 * checks the receipt itself; the chat line it prints comes from the signed record only.
 */
public final class LogLine {
    private LogLine() {}

    public static final String PREFIX = "ARB\t";
    /** Far above any commit the server accepts (a request body is at most 64 KB). */
    public static final int MAX_LINE = 200_000;
    private static final Pattern BASE64URL = Pattern.compile("^[A-Za-z0-9_-]*$");

    public static String encode(Receipt receipt) throws Canonical.CanonicalException {
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(receipt.canonicalText().getBytes(StandardCharsets.UTF_8));
    }

    public static boolean isArbiterLine(String line) {
        return line != null && line.startsWith(PREFIX);
    }

    /** Decodes a log line: strict base64url, strict UTF-8, strict JSON, and the canonical form itself. */
    public static Receipt decode(String line) throws Receipt.MalformedReceipt {
        if (!isArbiterLine(line)) throw new Receipt.MalformedReceipt("not an Arbiter log line");
        if (line.length() > MAX_LINE) throw new Receipt.MalformedReceipt("log line too long");
        String body = line.substring(PREFIX.length());
        if (!BASE64URL.matcher(body).matches() || body.length() % 4 == 1) throw new Receipt.MalformedReceipt("not base64url without padding");
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(body);
        } catch (IllegalArgumentException e) {
            throw new Receipt.MalformedReceipt("not base64url: " + e.getMessage());
        }
        if (!Base64.getUrlEncoder().withoutPadding().encodeToString(bytes).equals(body)) throw new Receipt.MalformedReceipt("base64url not written canonically");
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new Receipt.MalformedReceipt("not UTF-8");
        }
        Receipt receipt = Receipt.parse(text);
        try {
            if (!receipt.canonicalText().equals(text)) throw new Receipt.MalformedReceipt("the commit is not in canonical form");
        } catch (Canonical.CanonicalException e) {
            throw new Receipt.MalformedReceipt("the commit cannot be put in canonical form: " + e.getMessage());
        }
        return receipt;
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
                line = "✓ " + what + " [" + shortFingerprint(check.signerFingerprint) + "]";
                break;
            case GAP:
                line = "⚠ ARBITER GAP ⚠ " + what + " [" + shortFingerprint(check.signerFingerprint) + "] — " + String.join("; ", check.problems);
                break;
            case FORK:
                line = "✗✗ ARBITER FORK ✗✗ " + what + " — " + String.join("; ", check.problems) + " — do not accept this roll";
                break;
            default:
                line = "✗✗ ARBITER CHECK FAILED ✗✗ " + what + " — " + String.join("; ", check.problems) + " — do not accept this roll";
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
        String purpose = firstString("purpose", data, payload);
        if (purpose != null) out.append(' ').append(quote(purpose));
        String combat = firstString("combatId", data, payload);
        if (combat != null) out.append(' ').append(combat);
        Object expression = payload == null ? null : payload.get("dice");
        if (expression instanceof String) out.append(' ').append((String) expression);
        if (data != null && data.get("odds") instanceof String) {
            out.append(' ').append((String) data.get("odds"));
            if (data.get("column") instanceof String) out.append(", column ").append((String) data.get("column"));
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
