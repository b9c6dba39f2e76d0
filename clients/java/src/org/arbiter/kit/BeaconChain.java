package org.arbiter.kit;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A drand chain as a beacon game's {@code GameCreated.beacon} records it (docs/beacon.md §1),
 * and the round arithmetic of beacon.md: {@code time(r) = genesis + (r − 1) × period}, and the
 * round a command accepted at {@code recordedAt} waits for — the first one at least one whole
 * period later. The kit knows quicknet; any other chain counts only when the user pins its hash.
 */
public final class BeaconChain {
    public static final String BLS_UNCHAINED_G1 = "bls-unchained-g1-rfc9380";
    private static final Pattern NAME = Pattern.compile("^[a-z0-9][a-z0-9-]{0,31}$");
    private static final Pattern HEX32 = Pattern.compile("^[0-9a-f]{64}$");
    private static final Pattern HEX96 = Pattern.compile("^[0-9a-f]{192}$");
    /** As JavaScript's Date.toISOString writes it: milliseconds always, UTC. */
    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    /** League of Entropy's quicknet: a round every 3 s. */
    public static final BeaconChain QUICKNET = new BeaconChain("quicknet",
            "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
            "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
            3, 1692803367L, BLS_UNCHAINED_G1);

    public final String name;
    public final String chainHash;
    public final String publicKey;
    public final long period;
    public final long genesis;
    public final String scheme;

    public BeaconChain(String name, String chainHash, String publicKey, long period, long genesis, String scheme) {
        this.name = name;
        this.chainHash = chainHash;
        this.publicKey = publicKey;
        this.period = period;
        this.genesis = genesis;
        this.scheme = scheme;
    }

    /** Not a chain record as beacon.md §1 writes one. */
    public static final class MalformedChain extends Exception {
        private static final long serialVersionUID = 1L;

        public MalformedChain(String message) {
            super(message);
        }
    }

    /** Reads {@code GameCreated.data.beacon}: every field present, of its type and form, nothing else. */
    public static BeaconChain of(Object value) throws MalformedChain {
        if (!(value instanceof Map)) throw new MalformedChain("the beacon record is not an object");
        Map<?, ?> m = (Map<?, ?>) value;
        for (Object key : m.keySet()) {
            if (!"chain".equals(key) && !"chainHash".equals(key) && !"publicKey".equals(key) && !"period".equals(key) && !"genesis".equals(key) && !"scheme".equals(key)) {
                throw new MalformedChain("the beacon record has an unknown member " + Canonical.escapeForMessage(String.valueOf(key)));
            }
        }
        String name = text(m, "chain", NAME, "a chain name is 1 to 32 lowercase letters, digits or -");
        String hash = text(m, "chainHash", HEX32, "chainHash is 32 bytes in lowercase hex");
        String key = text(m, "publicKey", HEX96, "publicKey is 96 bytes in lowercase hex");
        long period = integer(m, "period");
        long genesis = integer(m, "genesis");
        if (period < 1 || period > 3600) throw new MalformedChain("period is 1 to 3600 seconds, not " + period);
        if (genesis < 0) throw new MalformedChain("genesis is a unix time in seconds, not " + genesis);
        if (!BLS_UNCHAINED_G1.equals(m.get("scheme"))) throw new MalformedChain("scheme must be " + BLS_UNCHAINED_G1);
        return new BeaconChain(name, hash, key, period, genesis, BLS_UNCHAINED_G1);
    }

    /** The same chain, field by field; the name aside (a file may call a known hash by another name, or give it another key). */
    public boolean sameAs(BeaconChain other) {
        return chainHash.equals(other.chainHash) && publicKey.equals(other.publicKey) && period == other.period && genesis == other.genesis && scheme.equals(other.scheme);
    }

    /** time(r) in milliseconds since the epoch. */
    public long roundTimeMs(long round) {
        return (genesis + (round - 1) * period) * 1000;
    }

    /** time(r) as the server writes {@code roundAt}. */
    public String roundAt(long round) {
        return iso(roundTimeMs(round));
    }

    /** beacon.md §2.1: the first round r with time(r) ≥ recordedAt + period. */
    public long pendingRoundFor(long recordedAtMs) {
        long periodMs = period * 1000;
        long target = recordedAtMs + periodMs - genesis * 1000;
        return Math.max(1, -Math.floorDiv(-target, periodMs) + 1);
    }

    public static String iso(long epochMs) {
        return ISO.format(Instant.ofEpochMilli(epochMs));
    }

    /** Milliseconds of an ISO-8601 UTC time (as commits record it), or throws. */
    public static long parseIso(String text) throws MalformedChain {
        try {
            return Instant.parse(text).toEpochMilli();
        } catch (DateTimeParseException | NullPointerException e) {
            throw new MalformedChain("not an ISO-8601 time: " + (text == null ? "nothing" : Canonical.escapeForMessage(text)));
        }
    }

    private static String text(Map<?, ?> m, String key, Pattern form, String problem) throws MalformedChain {
        Object v = m.get(key);
        if (!(v instanceof String) || !form.matcher((String) v).matches()) throw new MalformedChain(problem);
        return (String) v;
    }

    private static long integer(Map<?, ?> m, String key) throws MalformedChain {
        Object v = m.get(key);
        if (!(v instanceof Json.JsonNumber)) throw new MalformedChain(key + " is missing or not a number");
        try {
            return ((Json.JsonNumber) v).longValueExact();
        } catch (ArithmeticException e) {
            throw new MalformedChain(key + " is not an integer");
        }
    }
}
