package org.arbiter.kit.test;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.arbiter.kit.Canonical;
import org.arbiter.kit.Crypto;
import org.arbiter.kit.Json;
import org.arbiter.kit.LogLine;
import org.arbiter.kit.Receipt;
import org.arbiter.kit.TextLine;
import org.arbiter.kit.TrustedKeys;
import org.arbiter.kit.Verifier;

/** The kit without a server: parser, canonical form, crypto, text lines, log lines, and the chain checks on locally signed receipts. */
public final class OfflineTests {
    public static void main(String[] args) {
        T.section("strict JSON refuses what readers disagree on", OfflineTests::strictJson);
        T.section("canonical JSON (RFC 8785) of what commits hold", OfflineTests::canonical);
        T.section("Ed25519 and fingerprints (RFC 8032, RFC 8037, RFC 7638 vectors)", OfflineTests::crypto);
        T.section("chat lines stay one line", OfflineTests::textLines);
        T.section("log lines: round trip and malformed lines", OfflineTests::logLines);
        T.section("chain checks on locally signed receipts: forged, changed, gap, fork", OfflineTests::chain);
        System.exit(T.finish());
    }

    static void strictJson() throws Exception {
        T.throwsLike(Json.JsonException.class, "duplicate key", "duplicate key", () -> Json.parse("{\"a\":1,\"a\":1}"));
        T.throwsLike(Json.JsonException.class, "duplicate key", "duplicate key spelled with an escape", () -> Json.parse("{\"a\":1,\"\\u0061\":2}"));
        T.throwsLike(Json.JsonException.class, "duplicate key", "duplicate key deep inside", () -> Json.parse("[{\"x\":{\"dice\":[],\"dice\":[1]}}]"));
        T.throwsLike(Json.JsonException.class, "lone surrogate", "escaped lone surrogate", () -> Json.parse("\"\\ud800\""));
        T.throwsLike(Json.JsonException.class, "lone surrogate", "raw lone surrogate", () -> Json.parse("\"\udc00x\""));
        T.throwsLike(Json.JsonException.class, "lone surrogate", "reversed pair", () -> Json.parse("\"\\udc00\\ud800\""));
        T.throwsLike(Json.JsonException.class, "control character", "raw line feed in a string", () -> Json.parse("\"a\nb\""));
        T.throwsLike(Json.JsonException.class, "after the JSON value", "trailing text", () -> Json.parse("{} {}"));
        T.throwsLike(Json.JsonException.class, null, "leading zero", () -> Json.parse("[01]"));
        T.throwsLike(Json.JsonException.class, null, "single quotes", () -> Json.parse("{'a':1}"));
        T.throwsLike(Json.JsonException.class, null, "trailing comma", () -> Json.parse("[1,]"));
        T.throwsLike(Json.JsonException.class, null, "NaN", () -> Json.parse("NaN"));
        T.throwsLike(Json.JsonException.class, "deeper", "257 levels", () -> Json.parse("[".repeat(257) + "]".repeat(257)));
        T.check(Json.parse("[".repeat(256) + "]".repeat(256)) instanceof List, "256 levels are read");
        T.throwsLike(Json.JsonException.class, null, "empty text", () -> Json.parse(""));
        Map<String, Object> o = Json.parseObject(" {\"__proto__\":1, \"b\" : [true,false,null,\"\\u00e9\\/\"]}\n");
        T.equal(o.get("__proto__"), Json.JsonNumber.of(1), "__proto__ is an ordinary key");
        T.equal(((List<?>) o.get("b")).get(3), "é/", "escapes are read");
        T.equal(((Json.JsonNumber) Json.parse("9007199254740993")).value.toString(), "9007199254740993", "numbers are kept exactly as written");
    }

    static void canonical() throws Exception {
        T.equal(Canonical.write(Json.parse("{\"b\":1,\"a\":[1,\"x\",null,true,{}],\"\":0}")), "{\"\":0,\"a\":[1,\"x\",null,true,{}],\"b\":1}", "keys sorted, no white space");
        // UTF-16 order: U+1F600 (d83d de00) sorts before U+E000 and U+FFFF; by code points it would sort after.
        T.equal(Canonical.write(Json.parse("{\"\\uffff\":1,\"\\ud83d\\ude00\":2,\"\\ue000\":3,\"\\u00e9\":4,\"z\":5}")), "{\"z\":5,\"é\":4,\"😀\":2,\"\ue000\":3,\"\uffff\":1}", "keys sorted by UTF-16 code units");
        T.equal(Canonical.write("\"\\/\b\f\n\r\t\u0000\u001f\u007f\u2028é😀"), "\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0000\\u001f\u007f\u2028é😀\"", "strings escaped as JSON.stringify does");
        T.equal(Canonical.write(Json.parse("[-0, 0, 1.0, 1E2, 100e-2, -9007199254740991, 9007199254740991]")), "[0,0,1,100,1,-9007199254740991,9007199254740991]", "integers as ECMAScript writes them");
        T.throwsLike(Canonical.CanonicalException.class, "fraction", "a fraction is refused, not rounded", () -> Canonical.write(Json.parse("[1.5]")));
        T.throwsLike(Canonical.CanonicalException.class, "2^53", "an integer beyond 2^53 - 1 is refused", () -> Canonical.write(Json.parse("9007199254740992")));
        long t0 = System.nanoTime();
        T.throwsLike(Canonical.CanonicalException.class, "2^53", "1e999999 is refused", () -> Canonical.write(Json.parse("[1e999999,1E+999999]")));
        T.check(System.nanoTime() - t0 < 200_000_000L, "... at once, without expanding it");
        T.equal(Canonical.write(Json.parse("[0e999999,-0.0]")), "[0,0]", "0e999999 and -0.0 are 0");
        t0 = System.nanoTime();
        T.throwsLike(Canonical.CanonicalException.class, "fraction", "1e-999999 is refused", () -> Canonical.write(Json.parse("1e-999999")));
        T.check(System.nanoTime() - t0 < 200_000_000L, "... at once");
        T.throwsLike(Canonical.CanonicalException.class, "surrogate", "a lone surrogate is refused", () -> Canonical.write("\ud800"));
    }

    static void crypto() throws Exception {
        // RFC 8032 §7.1 test 1: the empty message.
        PublicKey key = Crypto.ed25519PublicKey(Crypto.base64urlOf(Crypto.hexBytes("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")));
        T.check(key != null, "an Ed25519 key from its raw 32 bytes");
        Signature v = Signature.getInstance("Ed25519");
        v.initVerify(key);
        v.update(new byte[0]); // this JDK's Ed25519 needs an update() call, even an empty one
        T.check(v.verify(Crypto.hexBytes("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")), "RFC 8032 test 1 verifies");
        v.initVerify(key);
        v.update(new byte[] {0});
        T.check(!v.verify(Crypto.hexBytes("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")), "RFC 8032 test 1 fails on another message");
        // RFC 8037 A.3: the RFC 7638 thumbprint of its Ed25519 key.
        T.equal(Crypto.fingerprintOf("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"), "ed25519:kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k", "RFC 8037 thumbprint");
        T.check(Crypto.rawX("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURp") == null, "x with non-zero unused bits is refused");
        T.check(Crypto.rawX("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo=") == null, "x with padding is refused");
        T.equal(Crypto.sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "SHA-256 of nothing");
        KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        String x = Crypto.xOf(pair.getPublic());
        T.equal(Crypto.ed25519PublicKey(x), pair.getPublic(), "x of a generated key round-trips");
    }

    static void textLines() {
        String hostile = "a\nb\rc\td\\n e\u0000\u001b[31m\u007f\u0085\u061c\u200e\u200f\u2028\u2029\u202a\u202e\u2066\u2069 é😀";
        String escaped = TextLine.escape(hostile);
        T.equal(escaped, "a\\nb\\rc\\td\\\\n e\\u0000\\u001b[31m\\u007f\\u0085\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a\\u202e\\u2066\\u2069 é😀", "escaped as the server's text lines are");
        T.check(safe(escaped), "no character left that breaks or reorders a line");
        T.check(safe(LogLine.unavailableLine("Roll \"x\u2028y\"", "Connection refused\n")), "the unavailable line is one safe line");
    }

    static boolean safe(String line) {
        for (int i = 0; i < line.length(); i++) if (TextLine.isUnsafe(line.charAt(i))) return false;
        return true;
    }

    // A test "server": its own key, signing records the way fairness-v1 says.
    static final class Signer {
        final KeyPair pair;
        final String kid;

        Signer(String kid) throws Exception {
            this.pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
            this.kid = kid;
        }

        String fingerprint() throws Exception {
            return Crypto.fingerprintOf(Crypto.xOf(pair.getPublic()));
        }

        String sign(String hashHex) throws Exception {
            Signature s = Signature.getInstance("Ed25519");
            s.initSign(pair.getPrivate());
            s.update(Crypto.hexBytes(hashHex));
            return Base64.getEncoder().encodeToString(s.sign());
        }

        /** Signs a record given as JSON text, filling kid, prevHash, hash, signature. */
        Receipt commit(String gameId, long seq, String prevHash, String purpose, int die) throws Exception {
            String json = "{\"gameId\":\"" + gameId + "\",\"seq\":" + seq + ",\"commandId\":\"c" + seq + "\",\"actor\":\"player1\","
                    + "\"command\":{\"type\":\"Roll\",\"payload\":{\"dice\":\"d6\",\"purpose\":" + Canonical.write(purpose) + "}},"
                    + "\"events\":[{\"type\":\"DiceRolled\",\"data\":{\"purpose\":" + Canonical.write(purpose) + ",\"total\":" + die + "}}],"
                    + "\"dice\":[{\"sides\":6,\"value\":" + die + "}],\"recordedAt\":\"2026-11-23T12:00:00.000Z\",\"kid\":\"" + kid + "\",\"prevHash\":\"" + prevHash + "\",\"hash\":\"\",\"signature\":\"\"}";
            return resign(Receipt.parse(json), this);
        }
    }

    /** Recomputes the hash of a (changed) record and signs it with {@code signer}. */
    static Receipt resign(Receipt r, Signer signer) throws Exception {
        Receipt kidded = r.with(Map.of("kid", signer.kid));
        String hash = kidded.computeHash();
        return kidded.with(Map.of("hash", hash, "signature", signer.sign(hash)));
    }

    static Receipt withDie(Receipt r, int value) throws Exception {
        return r.with(Map.of("dice", Json.parse("[{\"sides\":6,\"value\":" + value + "}]")));
    }

    static void logLines() throws Exception {
        Signer server = new Signer("k1");
        Receipt r = server.commit("g-1", 1, Verifier.GENESIS_PREV_HASH, "assault on 2708\n\u202e\u2028 \"quoted\" \\", 4);
        String line = LogLine.encode(r);
        T.check(line.startsWith("ARB\t") && line.substring(4).matches("[A-Za-z0-9_-]+"), "ARB, a tab, base64url");
        Receipt back = LogLine.decode(line);
        T.equal(back.canonicalText(), r.canonicalText(), "decode(encode(r)) is r");
        T.equal(back.hash, r.hash, "same hash after the round trip");
        T.equal(LogLine.encode(back), line, "encode(decode(line)) is the line");
        String body = Base64.getUrlEncoder().withoutPadding().encodeToString(r.canonicalText().getBytes(StandardCharsets.UTF_8));
        T.throwsLike(Receipt.MalformedReceipt.class, "not an Arbiter", "another line", () -> LogLine.decode("<player1> hello"));
        T.throwsLike(Receipt.MalformedReceipt.class, "base64url", "base64 with padding", () -> LogLine.decode("ARB\t" + body + "=="));
        T.throwsLike(Receipt.MalformedReceipt.class, "base64url", "standard base64 alphabet", () -> LogLine.decode("ARB\t" + body.replace('-', '+').replace('_', '/') + (body.contains("-") || body.contains("_") ? "" : "+")));
        String spaced = r.canonicalText().replaceFirst("\\{", "{ ");
        T.throwsLike(Receipt.MalformedReceipt.class, "canonical", "a commit not in canonical form", () -> LogLine.decode("ARB\t" + Crypto.base64urlOf(spaced.getBytes(StandardCharsets.UTF_8))));
        String dup = r.canonicalText().replaceFirst("\\{", "{\"seq\":1,");
        T.throwsLike(Receipt.MalformedReceipt.class, "duplicate key", "a duplicated key", () -> LogLine.decode("ARB\t" + Crypto.base64urlOf(dup.getBytes(StandardCharsets.UTF_8))));
        T.throwsLike(Receipt.MalformedReceipt.class, "UTF-8", "bytes that are not UTF-8", () -> LogLine.decode("ARB\t" + Crypto.base64urlOf(new byte[] {'"', (byte) 0xc3, '"'})));
        Verifier verifier = new Verifier(new TrustedKeys(List.of(server.fingerprint())).learn("k1", Crypto.xOf(server.pair.getPublic())));
        Verifier.Check check = LogLine.check(line, verifier);
        T.equal(check.status, Verifier.Status.OK, "the decoded receipt checks");
        String chat = LogLine.chatLine(check);
        T.check(chat.startsWith("✓ #1 player1 Roll \"assault on 2708\\\\n\\u202e\\u2028 \\\\\"quoted\\\\\" \\\\\\\\\" d6, die 4 = 4 [" + LogLine.shortFingerprint(server.fingerprint()) + "]"), "chat line: " + chat);
        T.check(safe(chat), "the chat line of a hostile purpose is one safe line");
        Verifier.Check garbage = LogLine.check("ARB\t!!!", verifier);
        T.equal(garbage.status, Verifier.Status.INVALID, "a garbled line is INVALID");
        T.check(LogLine.chatLine(garbage).startsWith("✗✗ ARBITER CHECK FAILED ✗✗ unreadable Arbiter line"), "and says so loudly: " + LogLine.chatLine(garbage));
    }

    static void chain() throws Exception {
        Signer server = new Signer("k1");
        Signer forger = new Signer("k1"); // the same kid: only the key counts
        TrustedKeys keys = new TrustedKeys(List.of(server.fingerprint())).learn("k1", Crypto.xOf(server.pair.getPublic()));
        Receipt r1 = server.commit("g-2", 1, Verifier.GENESIS_PREV_HASH, "first", 1);
        Receipt r2 = server.commit("g-2", 2, r1.hash, "second", 2);
        Receipt r3 = server.commit("g-2", 3, r2.hash, "third", 3);
        Receipt r4 = server.commit("g-2", 4, r3.hash, "fourth", 4);
        Receipt r5 = server.commit("g-2", 5, r4.hash, "fifth", 5);

        Verifier v = new Verifier(keys);
        T.equal(v.check(r1).status, Verifier.Status.OK, "#1 OK");
        T.equal(v.check(r2).status, Verifier.Status.OK, "#2 OK");
        Verifier.Check changed = v.check(withDie(r3, 6));
        T.equal(changed.status, Verifier.Status.INVALID, "a changed die is INVALID");
        T.check(changed.problems.get(0).startsWith("hash mismatch"), "... as a hash mismatch: " + changed.problems);
        Receipt rehashed = withDie(r3, 6);
        rehashed = rehashed.with(Map.of("hash", rehashed.computeHash()));
        Verifier.Check badSig = v.check(rehashed);
        T.equal(badSig.status, Verifier.Status.INVALID, "a changed die with a recomputed hash is INVALID");
        T.check(badSig.problems.toString().contains("signature does not verify"), "... by its signature: " + badSig.problems);
        Verifier.Check forged = v.check(resign(withDie(r3, 6), forger));
        T.equal(forged.status, Verifier.Status.INVALID, "re-signed by another key under the same kid: INVALID");
        // The forger publishes its key too (as a file or a fake /keys would): valid, but not pinned.
        TrustedKeys fooled = new TrustedKeys(List.of(server.fingerprint())).learn("k1", Crypto.xOf(server.pair.getPublic())).learn("k1", Crypto.xOf(forger.pair.getPublic()));
        Verifier.Check unpinned = new Verifier(fooled).check(resign(withDie(r3, 6), forger));
        T.equal(unpinned.status, Verifier.Status.INVALID, "re-signed by a published but unpinned key: INVALID");
        T.check(unpinned.problems.toString().contains("does not pin") && unpinned.problems.toString().contains(forger.fingerprint()), "... naming its fingerprint: " + unpinned.problems);
        T.check(LogLine.chatLine(unpinned).startsWith("✗✗ ARBITER CHECK FAILED ✗✗ #3 player1 Roll"), "loud chat line: " + LogLine.chatLine(unpinned));
        T.equal(v.check(r3).status, Verifier.Status.OK, "the genuine #3 still checks after the forgeries (they were not remembered)");

        Verifier.Check gap = v.check(r5);
        T.equal(gap.status, Verifier.Status.GAP, "#5 after #3 is a GAP");
        T.check(gap.problems.toString().contains("#4 never appeared"), "... naming #4: " + gap.problems);
        T.check(LogLine.chatLine(gap).startsWith("⚠ ARBITER GAP ⚠ #5"), "gap chat line: " + LogLine.chatLine(gap));
        T.equal(v.missing("g-2"), List.of(4L), "missing: [4]");
        Verifier.Check filled = v.check(r4);
        T.equal(filled.status, Verifier.Status.OK, "#4 arriving late fills the gap");
        T.check(filled.notes.toString().contains("fills the gap"), "... and says so");
        T.equal(v.missing("g-2"), List.of(), "nothing missing");
        T.equal(v.check(r4).status, Verifier.Status.OK, "the same receipt twice is not a fork");

        Receipt other4 = server.commit("g-2", 4, r3.hash, "fourth, rolled again", 2);
        Verifier.Check fork = v.check(other4);
        T.equal(fork.status, Verifier.Status.FORK, "another #4 signed by the server is a FORK");
        T.check(LogLine.chatLine(fork).startsWith("✗✗ ARBITER FORK ✗✗ #4"), "fork chat line: " + LogLine.chatLine(fork));
        Receipt detached6 = server.commit("g-2", 6, other4.hash, "sixth, on the other branch", 1);
        T.equal(v.check(detached6).status, Verifier.Status.FORK, "#6 linked to the other #4 is a FORK");
        Verifier late = new Verifier(keys);
        late.check(r1);
        late.check(r2);
        late.check(r4);
        T.equal(late.check(server.commit("g-2", 3, r2.hash, "another third", 6)).status, Verifier.Status.FORK, "a #3 that the #4 seen earlier does not follow is a FORK");
        Receipt badGenesis = server.commit("g-3", 1, r1.hash, "x", 1);
        T.equal(v.check(badGenesis).status, Verifier.Status.INVALID, "#1 must have a zero prevHash");
        Verifier.Check midway = new Verifier(keys).check(r3);
        T.equal(midway.status, Verifier.Status.GAP, "a log starting at #3 reports #1-#2 as a gap");
        T.check(midway.problems.toString().contains("#1–#2"), "... as a range: " + midway.problems);
        T.equal(new Verifier(keys).check(r1.with(Map.of("kid", "k9"))).status, Verifier.Status.INVALID, "an unknown kid is INVALID");
    }
}
