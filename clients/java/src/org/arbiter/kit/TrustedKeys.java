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
 * and the public keys learnt by kid (from GET /keys, an export's {@code keys}, or shipped in the
 * module). A learnt key is used only if its own fingerprint, computed here from {@code x}, is
 * pinned: a kid is a label anyone can choose, and keys supplied by a file are never trusted by
 * themselves.
 */
public final class TrustedKeys {
    private final Set<String> pinned = new LinkedHashSet<>();
    private final Map<String, List<String>> xByKid = new LinkedHashMap<>();

    public TrustedKeys(Collection<String> pinnedFingerprints) {
        for (String fp : pinnedFingerprints) pin(fp);
    }

    public TrustedKeys pin(String fingerprint) {
        if (fingerprint == null || !Crypto.FINGERPRINT.matcher(fingerprint.trim()).matches()) {
            throw new IllegalArgumentException("not a fingerprint (ed25519: and 43 base64url characters): " + fingerprint);
        }
        pinned.add(fingerprint.trim());
        return this;
    }

    public Set<String> pinned() {
        return Collections.unmodifiableSet(pinned);
    }

    /** Learns one public key: x is the JWK's 43-character base64url x. Unusable keys are ignored. */
    public TrustedKeys learn(String kid, String x) {
        if (kid == null || Crypto.rawX(x) == null) return this;
        List<String> xs = xByKid.computeIfAbsent(kid, k -> new ArrayList<>());
        if (!xs.contains(x)) xs.add(x);
        return this;
    }

    /** Learns every Ed25519 JWK of a {@code {"keys": [...]}} document (GET /keys, or an export's keys). */
    public TrustedKeys learnAll(Map<String, Object> keysDocument) {
        Object keys = keysDocument == null ? null : keysDocument.get("keys");
        if (!(keys instanceof List)) return this;
        for (Object k : (List<?>) keys) {
            if (!(k instanceof Map)) continue;
            Map<?, ?> jwk = (Map<?, ?>) k;
            if (!"OKP".equals(jwk.get("kty")) || !"Ed25519".equals(jwk.get("crv"))) continue;
            if (jwk.get("kid") instanceof String && jwk.get("x") instanceof String) learn((String) jwk.get("kid"), (String) jwk.get("x"));
        }
        return this;
    }

    /** The outcome of checking one signature. */
    public static final class SignatureCheck {
        public final boolean valid;
        public final boolean trusted;
        /** The fingerprint of the key that verified, or null. */
        public final String fingerprint;
        public final String problem;

        SignatureCheck(boolean valid, boolean trusted, String fingerprint, String problem) {
            this.valid = valid;
            this.trusted = trusted;
            this.fingerprint = fingerprint;
            this.problem = problem;
        }

        public boolean ok() {
            return valid && trusted;
        }
    }

    /**
     * Checks a signature made by the key named {@code kid}: valid means some key learnt under
     * that kid verifies it; trusted means that key's fingerprint is pinned.
     */
    public SignatureCheck check(String kid, String hashHex, String signatureB64) {
        List<String> xs = xByKid.get(kid);
        if (xs == null || xs.isEmpty()) {
            return new SignatureCheck(false, false, null, "no public key known for kid \"" + Canonical.escapeForMessage(kid) + "\" (neither from GET /keys nor shipped with the module)");
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
            if (pinned.contains(fp)) return new SignatureCheck(true, true, fp, null);
            untrustedSigner = fp;
        }
        if (untrustedSigner != null) {
            return new SignatureCheck(true, false, untrustedSigner, "signed by " + untrustedSigner + ", which this module does not pin");
        }
        return new SignatureCheck(false, false, null, "the signature does not verify with the key of kid \"" + Canonical.escapeForMessage(kid) + "\"");
    }
}
