package org.arbiter.kit;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** SHA-256, Ed25519 verification and RFC 7638 fingerprints with nothing but java.security. */
public final class Crypto {
    private Crypto() {}

    /** X.509 SubjectPublicKeyInfo prefix of an Ed25519 key (RFC 8410): SEQUENCE, algorithm 1.3.101.112, BIT STRING of 32 bytes. */
    private static final byte[] ED25519_SPKI_PREFIX = hexBytes("302a300506032b6570032100");
    private static final Pattern CANONICAL_X = Pattern.compile("^[A-Za-z0-9_-]{43}$");
    private static final Pattern HEX64 = Pattern.compile("^[0-9a-f]{64}$");
    private static final Pattern BASE64_SIG = Pattern.compile("^[A-Za-z0-9+/]{86}==$");
    public static final Pattern FINGERPRINT = Pattern.compile("^ed25519:[A-Za-z0-9_-]{43}$");

    public static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String sha256Hex(String utf8) {
        return hex(sha256(utf8.getBytes(StandardCharsets.UTF_8)));
    }

    public static byte[] hmacSha256(byte[] key, byte[] message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) out.append(String.format("%02x", b & 0xff));
        return out.toString();
    }

    public static byte[] hexBytes(String hex) {
        if (hex.length() % 2 != 0) throw new IllegalArgumentException("odd hex length");
        byte[] out = new byte[hex.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = Character.digit(hex.charAt(2 * i), 16), lo = Character.digit(hex.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) throw new IllegalArgumentException("not hex");
            out[i] = (byte) (hi * 16 + lo);
        }
        return out;
    }

    public static boolean isHash(String s) {
        return s != null && HEX64.matcher(s).matches();
    }

    /**
     * The 32 raw bytes of an Ed25519 JWK {@code x} written the one way RFC 8037 allows
     * (43 base64url characters, unused bits zero), or null.
     */
    public static byte[] rawX(String x) {
        if (x == null || !CANONICAL_X.matcher(x).matches()) return null;
        byte[] raw = Base64.getUrlDecoder().decode(x);
        if (raw.length != 32) return null;
        if (!Base64.getUrlEncoder().withoutPadding().encodeToString(raw).equals(x)) return null;
        return raw;
    }

    /** A key ready to verify with, from a JWK {@code x}; null when x is not a canonical Ed25519 key. */
    public static PublicKey ed25519PublicKey(String x) {
        byte[] raw = rawX(x);
        if (raw == null) return null;
        byte[] der = new byte[ED25519_SPKI_PREFIX.length + 32];
        System.arraycopy(ED25519_SPKI_PREFIX, 0, der, 0, ED25519_SPKI_PREFIX.length);
        System.arraycopy(raw, 0, der, ED25519_SPKI_PREFIX.length, 32);
        try {
            return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(der));
        } catch (GeneralSecurityException e) {
            return null;
        }
    }

    /** The raw 32-byte x of an Ed25519 public key made by this JDK (its X.509 form ends with it). */
    public static String xOf(PublicKey key) {
        byte[] der = key.getEncoded();
        byte[] raw = new byte[32];
        System.arraycopy(der, der.length - 32, raw, 0, 32);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    }

    /** fairness-v1 §5: Ed25519 over the raw 32 bytes of the hex hash; signature base64 with padding. */
    public static boolean signatureIsValid(String hashHex, String signatureB64, PublicKey key) {
        if (!isHash(hashHex) || signatureB64 == null || key == null || !BASE64_SIG.matcher(signatureB64).matches()) return false;
        byte[] signature;
        try {
            signature = Base64.getDecoder().decode(signatureB64);
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (signature.length != 64) return false;
        try {
            Signature verifier = Signature.getInstance("Ed25519");
            verifier.initVerify(key);
            verifier.update(hexBytes(hashHex));
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /** trust.md §1: {@code ed25519:} + base64url(SHA-256 of {"crv":"Ed25519","kty":"OKP","x":"<x>"}). */
    public static String fingerprintOf(String x) throws Canonical.CanonicalException {
        StringBuilder members = new StringBuilder("{\"crv\":\"Ed25519\",\"kty\":\"OKP\",\"x\":");
        Canonical.writeString(x, members);
        members.append('}');
        return "ed25519:" + Base64.getUrlEncoder().withoutPadding().encodeToString(sha256(members.toString().getBytes(StandardCharsets.UTF_8)));
    }

    public static String base64urlOf(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
