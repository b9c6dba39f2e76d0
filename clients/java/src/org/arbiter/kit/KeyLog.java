package org.arbiter.kit;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * trust.md §3, the server's key log: each statement retires one key (its {@code previous}
 * fingerprint) for another (its {@code next} JWK) and is signed by the key it retires.
 * {@link #walk} starts from the fingerprints a module pins and reads the log in order: a
 * statement whose {@code previous} is trusted and whose hash and signature hold makes
 * {@code next} trusted too; the first statement that fails ends the walk. The same walk as the
 * TypeScript reference (domain/trust/keyLog.ts), which run.mjs cross-checks.
 *
 * Keys listed next to the log (GET /keys, an export's keys) only say which public key has a
 * fingerprint: they are never trusted for being there.
 */
public final class KeyLog {
    private KeyLog() {}

    private static final BigInteger MAX_SAFE = BigInteger.valueOf(9007199254740991L);

    /** The statement that ended a walk. */
    public static final class Failure {
        /** Its position from 1; 0 when the log itself is not a list. */
        public final int n;
        /** To follow "key log statement n": "is numbered 3, not 2". */
        public final String reason;

        Failure(int n, String reason) {
            this.n = n;
            this.reason = reason;
        }

        /** "key log statement 2 is not signed by …", for people. */
        public String describe() {
            return (n == 0 ? "the key log " : "key log statement " + n + " ") + reason;
        }

        @Override
        public String toString() {
            return describe();
        }
    }

    /** A key handed over by a statement: the public key and the label the server gave it. */
    public static final class HandedOver {
        public final int n;
        public final String previous;
        public final String fingerprint;
        public final String kid;
        public final String x;
        /** Whether the statement made it trusted (its {@code previous} was trusted). */
        public final boolean trusted;

        HandedOver(int n, String previous, String fingerprint, String kid, String x, boolean trusted) {
            this.n = n;
            this.previous = previous;
            this.fingerprint = fingerprint;
            this.kid = kid;
            this.x = x;
            this.trusted = trusted;
        }
    }

    /** What a walk found. */
    public static final class Walk {
        /** Trusted fingerprints, in the order they became trusted: 0 = pinned, n = made trusted by statement n. */
        public final Map<String, Integer> trusted;
        /** The n of every statement that made a key trusted. */
        public final List<Integer> used;
        /** Every statement whose hash and signature were checked and hold, with the key it hands over. */
        public final List<HandedOver> verified;
        /** Statements that made nothing trusted because their {@code previous} is neither pinned nor reached (not a failure). */
        public final List<String> untrustedStatements;
        /** The statement that ended the walk, or null when the whole log was read. */
        public final Failure failure;

        Walk(Map<String, Integer> trusted, List<Integer> used, List<HandedOver> verified, List<String> untrustedStatements, Failure failure) {
            this.trusted = Collections.unmodifiableMap(trusted);
            this.used = Collections.unmodifiableList(used);
            this.verified = Collections.unmodifiableList(verified);
            this.untrustedStatements = Collections.unmodifiableList(untrustedStatements);
            this.failure = failure;
        }

        public boolean ok() {
            return failure == null;
        }
    }

    /**
     * Walks a key log (the parsed {@code log} of GET /keys or {@code keyLog} of an export; null
     * = no log) from {@code pinned}. {@code knownXs} are the JWK {@code x} of keys listed beside
     * the log: they only give the public key behind a fingerprint.
     */
    public static Walk walk(Object log, Collection<String> pinned, Collection<String> knownXs) {
        Map<String, String> xByFingerprint = new LinkedHashMap<>();
        for (String x : knownXs) {
            String fp = fingerprintOrNull(x);
            if (fp != null) xByFingerprint.put(fp, x);
        }
        Map<String, Integer> trusted = new LinkedHashMap<>();
        Map<String, String> trustedX = new LinkedHashMap<>();
        for (String fp : pinned) {
            trusted.put(fp, 0);
            if (xByFingerprint.containsKey(fp)) trustedX.put(fp, xByFingerprint.get(fp));
        }
        List<Integer> used = new ArrayList<>();
        List<HandedOver> verified = new ArrayList<>();
        List<String> untrusted = new ArrayList<>();
        if (log == null) return new Walk(trusted, used, verified, untrusted, null);
        if (!(log instanceof List)) return new Walk(trusted, used, verified, untrusted, new Failure(0, "is not a list"));
        List<?> statements = (List<?>) log;
        for (int index = 0; index < statements.size(); index++) {
            int n = index + 1;
            Object raw = statements.get(index);
            String shape = shapeProblem(raw);
            if (shape != null) return new Walk(trusted, used, verified, untrusted, new Failure(n, "is not a KeyRotation statement (" + shape + ")"));
            Map<?, ?> statement = (Map<?, ?>) raw;
            BigInteger numbered = ((Json.JsonNumber) statement.get("n")).integerOrNull();
            if (!BigInteger.valueOf(n).equals(numbered)) {
                return new Walk(trusted, used, verified, untrusted, new Failure(n, "is numbered " + numbered + ", not " + n + " (statements count from 1 without gaps, in order)"));
            }
            Map<?, ?> next = (Map<?, ?>) statement.get("next");
            String nextX = (String) next.get("x");
            String nextKid = (String) next.get("kid");
            String nextFp = fingerprintOrNull(nextX);
            if (nextFp == null || Crypto.ed25519PublicKey(nextX) == null) {
                return new Walk(trusted, used, verified, untrusted, new Failure(n, "hands over to a key that is not an Ed25519 public key"));
            }
            String previous = (String) statement.get("previous");
            boolean previousTrusted = trusted.containsKey(previous);
            String signerX = previousTrusted && trustedX.containsKey(previous) ? trustedX.get(previous) : xByFingerprint.get(previous);
            if (signerX == null) {
                if (previousTrusted) {
                    return new Walk(trusted, used, verified, untrusted, new Failure(n, "cannot be checked: no key given has the trusted fingerprint " + Canonical.escapeForMessage(previous)));
                }
                untrusted.add("key log statement " + n + " retires " + Canonical.escapeForMessage(previous) + ", a key this module neither pins nor reaches: it makes nothing trusted");
                continue; // signed by a key nobody here trusts or knows: it hands over nothing
            }
            String problem = statementProblem(statement, signerX, previous);
            if (problem != null) return new Walk(trusted, used, verified, untrusted, new Failure(n, problem));
            xByFingerprint.put(nextFp, nextX);
            verified.add(new HandedOver(n, previous, nextFp, nextKid, nextX, previousTrusted));
            if (!previousTrusted) {
                untrusted.add("key log statement " + n + " retires " + Canonical.escapeForMessage(previous) + ", a key this module neither pins nor reaches: it makes nothing trusted");
                continue;
            }
            trustedX.putIfAbsent(previous, signerX);
            if (trusted.containsKey(nextFp)) {
                trustedX.putIfAbsent(nextFp, nextX);
                continue;
            }
            trusted.put(nextFp, n);
            trustedX.put(nextFp, nextX);
            used.add(n);
        }
        return new Walk(trusted, used, verified, untrusted, null);
    }

    /** trust.md §3: hex SHA-256 of the RFC 8785 form of the statement without hash and signature. */
    public static String statementHash(Map<?, ?> statement) throws Canonical.CanonicalException {
        Map<Object, Object> signed = new LinkedHashMap<>(statement);
        signed.remove("hash");
        signed.remove("signature");
        return Crypto.hex(Crypto.sha256(Canonical.write(signed).getBytes(StandardCharsets.UTF_8)));
    }

    /** Why a statement's hash or signature does not hold, or null when both do. */
    static String statementProblem(Map<?, ?> statement, String signerX, String signerFingerprint) {
        String hash;
        try {
            hash = statementHash(statement);
        } catch (Canonical.CanonicalException e) {
            return "cannot be canonicalized: " + e.getMessage();
        }
        if (!hash.equals(statement.get("hash"))) return "does not hash to its \"hash\" (a byte of it was changed)";
        if (!Crypto.signatureIsValid(hash, (String) statement.get("signature"), Crypto.ed25519PublicKey(signerX))) {
            return "is not signed by " + Canonical.escapeForMessage(signerFingerprint) + ", the key it retires: the signature does not match the hash";
        }
        return null;
    }

    /** The shape of trust.md §3 (members beyond these are allowed, and hashed), or what is wrong with it. */
    static String shapeProblem(Object raw) {
        if (!(raw instanceof Map)) return "not an object";
        Map<?, ?> s = (Map<?, ?>) raw;
        if (!"KeyRotation".equals(s.get("type"))) return "type is not \"KeyRotation\"";
        if (!(s.get("n") instanceof Json.JsonNumber)) return "n is not a number";
        BigInteger n = ((Json.JsonNumber) s.get("n")).integerOrNull();
        if (n == null || n.abs().compareTo(MAX_SAFE) > 0) return "n is not an integer";
        for (String name : new String[] {"previous", "at", "hash", "signature"}) {
            if (!(s.get(name) instanceof String)) return name + " is not a string";
        }
        if (!(s.get("next") instanceof Map)) return "next is not an object";
        Map<?, ?> next = (Map<?, ?>) s.get("next");
        if (!"OKP".equals(next.get("kty")) || !"Ed25519".equals(next.get("crv"))) return "next is not an OKP Ed25519 key";
        if (!(next.get("x") instanceof String) || !(next.get("kid") instanceof String)) return "next has no x or kid";
        return null;
    }

    private static String fingerprintOrNull(String x) {
        if (Crypto.rawX(x) == null) return null;
        try {
            return Crypto.fingerprintOf(x);
        } catch (Canonical.CanonicalException e) {
            return null;
        }
    }
}
