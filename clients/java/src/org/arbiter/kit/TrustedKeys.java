package org.arbiter.kit;

import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The keys a module trusts (trust.md): a set of pinned fingerprints, which the module ships,
 * the keys those pins reach through the server's key log (trust.md §3, {@link KeyLog}), and the
 * public keys learnt by kid (from GET /keys, an export's {@code keys}, a key log, or shipped in
 * the module). A learnt key is used only if its own fingerprint, computed here from {@code x},
 * is pinned or reached through the key log from a pin: a kid is a label anyone can choose, and
 * keys supplied by a file are never trusted by themselves. Thread-safe.
 */
public final class TrustedKeys {
    private final Set<String> pinned = new LinkedHashSet<>();
    private final Map<String, List<String>> xByKid = new LinkedHashMap<>();
    /** Every distinct key log learnt (a log that another one extends is dropped). */
    private final List<List<Object>> logs = new ArrayList<>();
    /** Fingerprints reached through a key log: fingerprint -> n of the statement that made it trusted. */
    private final Map<String, Integer> reached = new LinkedHashMap<>();
    private final List<KeyLog.Walk> walks = new ArrayList<>();

    public TrustedKeys(Collection<String> pinnedFingerprints) {
        for (String fp : pinnedFingerprints) pin(fp);
    }

    public synchronized TrustedKeys pin(String fingerprint) {
        if (fingerprint == null || !Crypto.FINGERPRINT.matcher(fingerprint.trim()).matches()) {
            throw new IllegalArgumentException("not a fingerprint (ed25519: and 43 base64url characters): " + fingerprint);
        }
        pinned.add(fingerprint.trim());
        rewalk();
        return this;
    }

    public synchronized Set<String> pinned() {
        return Collections.unmodifiableSet(new LinkedHashSet<>(pinned));
    }

    /** The fingerprints the pins reach through the key logs learnt so far (pins not included), with the statement n that reached each. */
    public synchronized Map<String, Integer> reached() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(reached));
    }

    /** Pinned, or reached through a key log from a pin. */
    public synchronized boolean isTrusted(String fingerprint) {
        return pinned.contains(fingerprint) || reached.containsKey(fingerprint);
    }

    /** The walks of the key logs learnt so far, from the current pins and keys. */
    public synchronized List<KeyLog.Walk> walks() {
        return Collections.unmodifiableList(new ArrayList<>(walks));
    }

    /** Learns one public key: x is the JWK's 43-character base64url x. Unusable keys are ignored. */
    public synchronized TrustedKeys learn(String kid, String x) {
        if (learnQuietly(kid, x)) rewalk();
        return this;
    }

    private boolean learnQuietly(String kid, String x) {
        if (kid == null || Crypto.rawX(x) == null) return false;
        List<String> xs = xByKid.computeIfAbsent(kid, k -> new ArrayList<>());
        if (xs.contains(x)) return false;
        xs.add(x);
        return true;
    }

    /**
     * Learns every Ed25519 JWK of a {@code {"keys": [...]}} document (GET /keys, or an export's
     * keys), and its key log when it has one ({@code log} of GET /keys). The {@code fingerprint}
     * and {@code status} members a server adds are not believed: the fingerprint is computed here.
     */
    public synchronized TrustedKeys learnAll(Map<String, Object> keysDocument) {
        Object keys = keysDocument == null ? null : keysDocument.get("keys");
        if (keys instanceof List) {
            for (Object k : (List<?>) keys) {
                if (!(k instanceof Map)) continue;
                Map<?, ?> jwk = (Map<?, ?>) k;
                if (!"OKP".equals(jwk.get("kty")) || !"Ed25519".equals(jwk.get("crv"))) continue;
                if (jwk.get("kid") instanceof String && jwk.get("x") instanceof String) learnQuietly((String) jwk.get("kid"), (String) jwk.get("x"));
            }
        }
        if (keysDocument != null && keysDocument.containsKey("log")) addLog(keysDocument.get("log"));
        rewalk();
        return this;
    }

    /**
     * Learns what an export (fairness-v1 §7, trust.md §3) says about keys: its {@code keys}
     * document and its {@code keyLog}. Returns the walk of that key log.
     */
    public synchronized KeyLog.Walk learnExport(Map<String, Object> export) {
        Object keys = export == null ? null : export.get("keys");
        if (keys instanceof Map) {
            @SuppressWarnings("unchecked")
            Map<String, Object> doc = (Map<String, Object>) keys;
            Map<String, Object> withoutLog = new LinkedHashMap<>(doc);
            withoutLog.remove("log");
            learnAll(withoutLog);
        }
        return learnLog(export == null ? null : export.get("keyLog"));
    }

    /**
     * Learns a key log (the {@code log} of GET /keys, or an export's {@code keyLog}) and walks it
     * from the pins. Returns its walk: {@code failure} names the statement that was refused and
     * why; what it reached before that statement stays trusted, nothing after it does.
     */
    public synchronized KeyLog.Walk learnLog(Object log) {
        addLog(log);
        rewalk();
        return KeyLog.walk(log, pinned, knownXs());
    }

    private void addLog(Object log) {
        List<Object> candidate = new ArrayList<>();
        if (log instanceof List) candidate.addAll((List<?>) log);
        else if (log != null) candidate.add(new NotAList(log)); // walked, and refused, like any other log
        else return;
        for (int i = 0; i < logs.size(); i++) {
            List<Object> held = logs.get(i);
            if (isPrefix(candidate, held)) return; // nothing new
            if (isPrefix(held, candidate)) {
                logs.set(i, candidate); // the server's log grew: one rotation more
                return;
            }
        }
        logs.add(candidate);
    }

    /** A value given as a key log that is not a list: kept so that its walk reports it. */
    private static final class NotAList {
        final Object value;

        NotAList(Object value) {
            this.value = value;
        }
    }

    private static boolean isPrefix(List<Object> shorter, List<Object> longer) {
        if (shorter.size() > longer.size()) return false;
        for (int i = 0; i < shorter.size(); i++) if (!sameValue(shorter.get(i), longer.get(i))) return false;
        return true;
    }

    private static boolean sameValue(Object a, Object b) {
        if (a instanceof NotAList || b instanceof NotAList) return a == b;
        try {
            return Canonical.write(a).equals(Canonical.write(b));
        } catch (Canonical.CanonicalException e) {
            return a.equals(b);
        }
    }

    private List<String> knownXs() {
        List<String> out = new ArrayList<>();
        for (List<String> xs : xByKid.values()) for (String x : xs) if (!out.contains(x)) out.add(x);
        return out;
    }

    /** Walks every log again from the pins and every key known: a key learnt later can make a statement checkable. */
    private void rewalk() {
        for (;;) { // ends: each further round learnt a key more, and a log hands over finitely many
            reached.clear();
            walks.clear();
            boolean learntMore = false;
            for (List<Object> log : logs) {
                Object value = log.size() == 1 && log.get(0) instanceof NotAList ? ((NotAList) log.get(0)).value : log;
                KeyLog.Walk walk = KeyLog.walk(value, pinned, knownXs());
                walks.add(walk);
                for (Map.Entry<String, Integer> e : walk.trusted.entrySet()) {
                    if (e.getValue() > 0 && !pinned.contains(e.getKey())) reached.putIfAbsent(e.getKey(), e.getValue());
                }
                // A key handed over by a statement that verifies is known by its kid from now on (trust still comes from the walk).
                for (KeyLog.HandedOver h : walk.verified) learntMore |= learnQuietly(h.kid, h.x);
            }
            if (!learntMore) return;
        }
    }

    /** Why receipts signed by a key outside the trusted set may have failed: the key logs refused, for the messages. */
    private String logTrouble() {
        if (logs.isEmpty()) return " (no key log was given: a module learns it from GET /keys, an export, or the Arbiter keys line in the game log)";
        List<String> failures = new ArrayList<>();
        for (KeyLog.Walk w : walks) if (w.failure != null) failures.add(w.failure.describe());
        return failures.isEmpty() ? "" : " (" + String.join("; ", failures) + ")";
    }

    /** The outcome of checking one signature. */
    public static final class SignatureCheck {
        public final boolean valid;
        public final boolean trusted;
        /** The fingerprint of the key that verified, or null. */
        public final String fingerprint;
        /** How the signer is trusted: 0 = pinned, n = reached through key log statement n; -1 = not trusted. */
        public final int via;
        public final String problem;

        SignatureCheck(boolean valid, boolean trusted, String fingerprint, int via, String problem) {
            this.valid = valid;
            this.trusted = trusted;
            this.fingerprint = fingerprint;
            this.via = via;
            this.problem = problem;
        }

        public boolean ok() {
            return valid && trusted;
        }
    }

    /**
     * Checks a signature made by the key named {@code kid}: valid means some key learnt under
     * that kid verifies it; trusted means that key's fingerprint is pinned, or reached from a pin
     * through the key log.
     */
    public synchronized SignatureCheck check(String kid, String hashHex, String signatureB64) {
        List<String> xs = xByKid.get(kid);
        if (xs == null || xs.isEmpty()) {
            return new SignatureCheck(false, false, null, -1, "no public key known for kid \"" + Canonical.escapeForMessage(kid) + "\" (neither from GET /keys, an export or a key log, nor shipped with the module)");
        }
        String untrustedSigner = null;
        for (String x : xs) {
            PublicKey key = Crypto.ed25519PublicKey(x);
            if (!Crypto.signatureIsValid(hashHex, signatureB64, key)) continue;
            String fp;
            try {
                fp = Crypto.fingerprintOf(x);
            } catch (Canonical.CanonicalException e) {
                continue;
            }
            if (pinned.contains(fp)) return new SignatureCheck(true, true, fp, 0, null);
            if (reached.containsKey(fp)) return new SignatureCheck(true, true, fp, reached.get(fp), null);
            untrustedSigner = fp;
        }
        if (untrustedSigner != null) {
            return new SignatureCheck(true, false, untrustedSigner, -1, "signed by " + untrustedSigner + ", which this module does not pin and no pinned key reaches through the server's key log" + logTrouble());
        }
        return new SignatureCheck(false, false, null, -1, "the signature does not verify with the key of kid \"" + Canonical.escapeForMessage(kid) + "\"");
    }
}
