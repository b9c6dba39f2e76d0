package org.arbiter.kit.test;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.Signature;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.arbiter.kit.Canonical;
import org.arbiter.kit.Crypto;
import org.arbiter.kit.Json;
import org.arbiter.kit.KeyLog;
import org.arbiter.kit.LogLine;
import org.arbiter.kit.ModuleLog;
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
        T.section("key log (trust.md §3): walked from the pins, broken statements refused", OfflineTests::keyLog);
        T.section("key log through TrustedKeys, Verifier, the keys line and an export", OfflineTests::keyLogTrust);
        T.section("ModuleLog: what a module read, saved as one state line and checked again", OfflineTests::moduleLog);
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
            return Crypto.fingerprintOf(x());
        }

        String x() {
            return Crypto.xOf(pair.getPublic());
        }

        /** Its entry of a GET /keys document. */
        String jwk() {
            return "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"" + x() + "\",\"kid\":\"" + kid + "\"}";
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

    // ---- key log (trust.md §3) ----

    /** A KeyRotation statement n retiring {@code previous} for {@code next}, hashed and signed by {@code signedBy} (the retiring key, unless forged). */
    static Map<String, Object> rotation(int n, Signer previous, Signer next, Signer signedBy) throws Exception {
        Map<String, Object> statement = new LinkedHashMap<>(Json.parseObject("{\"type\":\"KeyRotation\",\"n\":" + n + ",\"previous\":\"" + previous.fingerprint()
                + "\",\"next\":" + next.jwk() + ",\"at\":\"2026-11-23T12:00:0" + n + ".000Z\"}"));
        return signStatement(statement, signedBy);
    }

    static Map<String, Object> signStatement(Map<String, Object> unsigned, Signer signedBy) throws Exception {
        Map<String, Object> statement = new LinkedHashMap<>(unsigned);
        statement.remove("hash");
        statement.remove("signature");
        String hash = KeyLog.statementHash(statement);
        statement.put("hash", hash);
        statement.put("signature", signedBy.sign(hash));
        return statement;
    }

    static Map<String, Object> with(Map<String, Object> statement, String key, Object value) {
        Map<String, Object> copy = new LinkedHashMap<>(statement);
        copy.put(key, value);
        return copy;
    }

    static List<Object> logOf(Object... statements) {
        return new ArrayList<>(List.of(statements));
    }

    static Map<String, Object> keysDoc(List<Object> log, Signer... keys) throws Exception {
        StringBuilder json = new StringBuilder("{\"keys\":[");
        for (int i = 0; i < keys.length; i++) json.append(i == 0 ? "" : ",").append(keys[i].jwk());
        Map<String, Object> doc = new LinkedHashMap<>(Json.parseObject(json.append("]}").toString()));
        if (log != null) doc.put("log", log);
        return doc;
    }

    static void keyLog() throws Exception {
        Signer a = new Signer("ka"), b = new Signer("kb"), c = new Signer("kc"), forger = new Signer("kb");
        String fa = a.fingerprint(), fb = b.fingerprint(), fc = c.fingerprint();
        Map<String, Object> s1 = rotation(1, a, b, a), s2 = rotation(2, b, c, b);
        List<Object> log = logOf(s1, s2);

        KeyLog.Walk walk = KeyLog.walk(log, List.of(fa), List.of(a.x()));
        T.check(walk.ok(), "a valid log walks to its end: " + walk.failure);
        T.equal(walk.trusted, Map.of(fa, 0, fb, 1, fc, 2), "pinned A reaches B (#1) and C (#2)");
        T.equal(walk.used, List.of(1, 2), "both statements were used");
        T.equal(KeyLog.walk(log, List.of(fb), List.of(b.x())).trusted, Map.of(fb, 0, fc, 2), "pinned B reaches C only: the log is never walked backwards");
        T.equal(KeyLog.walk(log, List.of(fc), List.of(c.x())).trusted, Map.of(fc, 0), "pinned C reaches nothing");
        T.equal(KeyLog.walk(null, List.of(fa), List.of()).trusted, Map.of(fa, 0), "no log: the pins only");
        T.equal(KeyLog.walk(List.of(), List.of(fa), List.of()).failure, null, "an empty log is no failure");

        // A byte changed: the `at` of statement 2.
        KeyLog.Walk changed = KeyLog.walk(logOf(s1, with(s2, "at", "2026-11-23T12:00:03.000Z")), List.of(fa), List.of(a.x()));
        T.check(changed.failure != null && changed.failure.n == 2 && changed.failure.reason.contains("does not hash"), "a changed byte in statement 2 is refused there: " + changed.failure);
        T.equal(changed.trusted, Map.of(fa, 0, fb, 1), "... B (before it) stays trusted, C does not");
        // A changed next key with the hash recomputed, but not re-signed.
        Map<String, Object> swapped = with(s2, "next", Json.parseObject(forger.jwk()));
        swapped = with(swapped, "hash", KeyLog.statementHash(swapped));
        KeyLog.Walk resigned = KeyLog.walk(logOf(s1, swapped), List.of(fa), List.of(a.x()));
        T.check(resigned.failure != null && resigned.failure.n == 2 && resigned.failure.reason.contains("is not signed by " + fb), "a next key swapped and re-hashed: refused by its signature: " + resigned.failure);
        // Signed by the wrong key: the new key signs its own hand-over; a forger signs one in B's name.
        KeyLog.Walk selfSigned = KeyLog.walk(logOf(s1, rotation(2, b, c, c)), List.of(fa), List.of(a.x()));
        T.check(selfSigned.failure != null && selfSigned.failure.n == 2 && selfSigned.failure.reason.contains("is not signed by"), "statement 2 signed by the key it hands over to is refused: " + selfSigned.failure);
        KeyLog.Walk forged = KeyLog.walk(logOf(s1, rotation(2, b, forger, forger)), List.of(fa), List.of(a.x(), forger.x()));
        T.check(forged.failure != null && forged.failure.n == 2 && !forged.trusted.containsKey(forger.fingerprint()), "a forger's statement retiring B for itself is refused: " + forged.failure);
        KeyLog.Walk appended = KeyLog.walk(logOf(s1, s2, rotation(3, c, forger, forger)), List.of(fa), List.of(a.x()));
        T.check(appended.failure != null && appended.failure.n == 3 && appended.trusted.containsKey(fc) && !appended.trusted.containsKey(forger.fingerprint()), "a forged statement appended after a valid log is refused at 3: " + appended.failure);
        // Out of order, and a gap in n.
        KeyLog.Walk reversed = KeyLog.walk(logOf(s2, s1), List.of(fa), List.of(a.x()));
        T.check(reversed.failure != null && reversed.failure.n == 1 && reversed.failure.reason.startsWith("is numbered 2, not 1"), "statements out of order are refused: " + reversed.failure);
        KeyLog.Walk gap = KeyLog.walk(logOf(s1, rotation(3, b, c, b)), List.of(fa), List.of(a.x()));
        T.check(gap.failure != null && gap.failure.n == 2 && gap.failure.reason.startsWith("is numbered 3, not 2"), "a gap in n is refused: " + gap.failure);
        T.equal(gap.trusted, Map.of(fa, 0, fb, 1), "... after statement 1 was used");
        // A chain that does not start at a pinned key.
        Signer other = new Signer("ko");
        KeyLog.Walk elsewhere = KeyLog.walk(log, List.of(other.fingerprint()), List.of(a.x(), other.x()));
        T.check(elsewhere.ok(), "a log from a key this module does not trust is no failure: " + elsewhere.failure);
        T.equal(elsewhere.trusted, Map.of(other.fingerprint(), 0), "... but makes nothing trusted");
        T.check(elsewhere.untrustedStatements.size() == 2 && elsewhere.untrustedStatements.get(0).contains("neither pins nor reaches"), "... and says which statements were not from a trusted key: " + elsewhere.untrustedStatements);
        KeyLog.Walk unknownSigner = KeyLog.walk(log, List.of(other.fingerprint()), List.of());
        T.check(unknownSigner.ok() && unknownSigner.trusted.equals(Map.of(other.fingerprint(), 0)), "the same when the retiring keys are not even known");
        // Malformed logs and statements.
        T.check(KeyLog.walk(Json.parseObject("{}"), List.of(fa), List.of()).failure.n == 0, "a log that is not a list is refused as a whole");
        KeyLog.Walk noType = KeyLog.walk(logOf(with(s1, "type", "GameHead")), List.of(fa), List.of(a.x()));
        T.check(noType.failure != null && noType.failure.n == 1 && noType.failure.reason.startsWith("is not a KeyRotation statement"), "a statement of another type is refused: " + noType.failure);
        KeyLog.Walk fraction = KeyLog.walk(logOf(with(s1, "n", Json.parse("1.5"))), List.of(fa), List.of(a.x()));
        T.check(fraction.failure != null && fraction.failure.n == 1, "n = 1.5 is refused: " + fraction.failure);
        T.check(KeyLog.walk(logOf(with(s1, "n", Json.parse("1.0"))), List.of(fa), List.of(a.x())).ok(), "n written 1.0 is the number 1, as JSON (and JavaScript) read it: its canonical form, and so the hash, are unchanged");
        Map<String, Object> badKey = signStatement(with(s1, "next", Json.parseObject("{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"" + b.x() + "=\",\"kid\":\"kb\"}")), a);
        T.check(KeyLog.walk(logOf(badKey), List.of(fa), List.of(a.x())).failure.reason.contains("not an Ed25519 public key"), "a next key that is not a canonical Ed25519 x is refused");
        KeyLog.Walk extra = KeyLog.walk(logOf(with(s1, "note", "added later")), List.of(fa), List.of(a.x()));
        T.check(extra.failure != null && extra.failure.reason.contains("does not hash"), "a member added to a signed statement breaks its hash: " + extra.failure);
        T.check(KeyLog.walk(logOf(signStatement(with(s1, "note", "signed with it"), a)), List.of(fa), List.of(a.x())).ok(), "a member that was signed with the statement is allowed (and hashed)");
        KeyLog.Walk noKey = KeyLog.walk(log, List.of(fa), List.of());
        T.check(noKey.failure != null && noKey.failure.n == 1 && noKey.failure.reason.startsWith("cannot be checked"), "a pinned fingerprint whose public key is nowhere given cannot check statement 1: " + noKey.failure);
        T.equal(KeyLog.walk(logOf(s1, rotation(2, b, a, b)), List.of(fa), List.of(a.x())).trusted, Map.of(fa, 0, fb, 1), "a hand-over back to a trusted key changes nothing");
    }

    static void keyLogTrust() throws Exception {
        Signer a = new Signer("ka"), b = new Signer("kb"), c = new Signer("kc"), forger = new Signer("kc");
        String fa = a.fingerprint();
        List<Object> log = logOf(rotation(1, a, b, a), rotation(2, b, c, b));
        Receipt byA = a.commit("g-9", 1, Verifier.GENESIS_PREV_HASH, "before any rotation", 1);
        Receipt byB = b.commit("g-9", 2, byA.hash, "after the first", 2);
        Receipt byC = c.commit("g-9", 3, byB.hash, "after the second", 3);
        Receipt forgedByC = resign(withDie(byC, 6), forger);

        // The module pins A and shipped A's key; it has not seen the log yet.
        Verifier before = new Verifier(new TrustedKeys(List.of(fa)).learnAll(keysDoc(null, a)));
        T.equal(before.check(byA).status, Verifier.Status.OK, "A's receipt checks with the pin alone");
        Verifier.Check unknown = before.check(byB);
        T.equal(unknown.status, Verifier.Status.INVALID, "B's receipt without the key log: INVALID (this is what broke after a rotation)");
        T.check(unknown.problems.toString().contains("no public key known for kid \"kb\""), "... no key for its kid: " + unknown.problems);
        // Keys without the log: B's key is known but not trusted.
        TrustedKeys keysOnly = new TrustedKeys(List.of(fa)).learnAll(keysDoc(null, a, b, c));
        Verifier.Check noLog = new Verifier(keysOnly).check(byB);
        T.check(noLog.status == Verifier.Status.INVALID && noLog.problems.toString().contains("does not pin and no pinned key reaches") && noLog.problems.toString().contains("no key log was given"), "B's key listed but no log: INVALID, saying why: " + noLog.problems);

        // GET /keys with its log: A reaches B and C.
        TrustedKeys keys = new TrustedKeys(List.of(fa)).learnAll(keysDoc(log, a, b, c));
        T.equal(keys.reached(), Map.of(b.fingerprint(), 1, c.fingerprint(), 2), "GET /keys with its log: B via #1, C via #2");
        Verifier v = new Verifier(keys);
        T.equal(v.check(byA).status, Verifier.Status.OK, "A's receipt: OK");
        Verifier.Check okB = v.check(byB);
        T.equal(okB.status, Verifier.Status.OK, "B's receipt through the log: OK " + okB.problems);
        T.equal(okB.signerVia, 1, "... via statement 1");
        Verifier.Check okC = v.check(byC);
        T.equal(okC.status, Verifier.Status.OK, "C's receipt through the log: OK " + okC.problems);
        T.check(LogLine.chatLine(okC).endsWith("[" + LogLine.shortFingerprint(c.fingerprint()) + " via key log #2]"), "the chat line says the key came through the key log: " + LogLine.chatLine(okC));
        T.check(LogLine.chatLine(v.check(byA)).endsWith("[" + LogLine.shortFingerprint(fa) + "]"), "... and a pinned key's does not: " + LogLine.chatLine(v.check(byA)));
        Verifier.Check forged = new Verifier(keys).check(forgedByC);
        T.equal(forged.status, Verifier.Status.INVALID, "a changed die re-signed under C's kid by another key: still INVALID");
        TrustedKeys withForger = new TrustedKeys(List.of(fa)).learnAll(keysDoc(log, a, b, c, forger));
        Verifier.Check published = new Verifier(withForger).check(forgedByC);
        T.check(published.status == Verifier.Status.INVALID && published.problems.toString().contains(forger.fingerprint()) && published.problems.toString().contains("no pinned key reaches"), "... even with the forger's key published beside the log: " + published.problems);
        // The keys are learnt only under the kid the statement gives: receipts need no /keys listing of them.
        Verifier logOnly = new Verifier(new TrustedKeys(List.of(fa)).learnAll(keysDoc(log, a)));
        T.equal(logOnly.check(byC).status, Verifier.Status.GAP, "the log alone gives C's key by its kid (a GAP: #1-#2 not shown to this verifier)");

        // A broken log: statement 2 forged; C's receipts fail and say which statement was refused.
        List<Object> brokenLog = logOf(log.get(0), rotation(2, b, forger, forger));
        TrustedKeys broken = new TrustedKeys(List.of(fa)).learnAll(keysDoc(brokenLog, a, b, c, forger));
        Verifier.Check afterBreak = new Verifier(broken).check(forgedByC);
        T.check(afterBreak.status == Verifier.Status.INVALID && afterBreak.problems.toString().contains("key log statement 2 is not signed by"), "a forged statement 2: the forger's receipt is INVALID and names statement 2: " + afterBreak.problems);
        T.equal(new Verifier(broken).check(byB).status, Verifier.Status.GAP, "... B, reached before the refused statement, still counts (GAP only: #1 unseen)");
        // A log that starts at a key the module does not pin.
        Signer other = new Signer("ko");
        Verifier.Check elsewhere = new Verifier(new TrustedKeys(List.of(other.fingerprint())).learnAll(keysDoc(log, a, b, c))).check(byC);
        T.check(elsewhere.status == Verifier.Status.INVALID && elsewhere.problems.toString().contains("no pinned key reaches"), "a chain not starting at a pinned key: INVALID: " + elsewhere.problems);
        // A log that grew (one more rotation) replaces the shorter one; a pin added later re-walks.
        TrustedKeys growing = new TrustedKeys(List.of(fa)).learnAll(keysDoc(logOf(log.get(0)), a, b));
        T.equal(growing.reached(), Map.of(b.fingerprint(), 1), "a log of one rotation: B");
        growing.learnAll(keysDoc(log, a, b, c));
        T.equal(growing.reached(), Map.of(b.fingerprint(), 1, c.fingerprint(), 2), "the same log grown by a rotation: B and C");
        T.equal(growing.walks().size(), 1, "... held as one log");
        TrustedKeys late = new TrustedKeys(List.of(other.fingerprint())).learnAll(keysDoc(log, a, b, c));
        T.equal(late.reached(), Map.of(), "nothing reached from an unrelated pin");
        late.pin(fa);
        T.equal(late.reached(), Map.of(b.fingerprint(), 1, c.fingerprint(), 2), "pinning A later walks the log again");

        // The keys line: GET /keys into the game log, read back by another client.
        String line = LogLine.encodeKeys(keysDoc(log, a, b, c));
        T.check(line.startsWith("ARBKEYS\t") && line.substring(8).matches("[A-Za-z0-9_-]+"), "ARBKEYS, a tab, base64url");
        T.check(LogLine.isKitLine(line) && !LogLine.isArbiterLine(line) && LogLine.isKitLine(LogLine.encode(byA)), "keys lines and receipt lines are told apart");
        T.equal(Canonical.write(LogLine.decodeKeys(line)), Canonical.write(Json.parseObject(Canonical.write(keysDoc(log, a, b, c)))), "decodeKeys(encodeKeys(doc)) is doc");
        Verifier opponent = new Verifier(new TrustedKeys(List.of(fa)).learnAll(keysDoc(null, a)));
        List<String> chat = new ArrayList<>();
        for (String l : List.of(LogLine.encode(byA), line, LogLine.encode(byB), LogLine.encode(byC))) chat.add(LogLine.read(l, opponent));
        T.check(chat.get(0).startsWith("✓ #1") && chat.get(1).startsWith("✓ Arbiter keys:") && chat.get(1).contains("via key log #2") && chat.get(2).startsWith("✓ #2") && chat.get(3).startsWith("✓ #3"), "a log of receipt, keys line, receipts reads as all ✓: " + chat);
        for (String l : chat) T.check(safe(l), "one safe line: " + l);
        String none = LogLine.read(LogLine.encodeKeys(keysDoc(logOf(), a)), new Verifier(new TrustedKeys(List.of(fa))));
        T.check(none.startsWith("✓ Arbiter keys received: no key rotation so far"), "a keys line before any rotation: " + none);
        String notOurs = LogLine.read(line, new Verifier(new TrustedKeys(List.of(c.fingerprint()))));
        T.check(notOurs.startsWith("✓ Arbiter keys received: 2 key rotations in the server's key log, none from a key this module pins"), "a keys line whose rotations start before the pinned key: " + notOurs);
        String tampered = LogLine.encodeKeys(keysDoc(logOf(log.get(0), with(castMap(log.get(1)), "at", "2027-01-01T00:00:00.000Z")), a, b, c));
        Verifier fooled = new Verifier(new TrustedKeys(List.of(fa)).learnAll(keysDoc(null, a)));
        String refused = LogLine.read(tampered, fooled);
        T.check(refused.startsWith("✗✗ ARBITER KEY LOG REFUSED ✗✗ key log statement 2 does not hash"), "a keys line whose statement 2 was changed is refused loudly: " + refused);
        T.equal(fooled.check(byC).status, Verifier.Status.INVALID, "... and C's receipt fails after it");
        String unreadable = LogLine.read("ARBKEYS\t" + Crypto.base64urlOf("{ \"keys\":[],\"log\":[]}".getBytes(StandardCharsets.UTF_8)), fooled);
        T.check(unreadable.startsWith("✗✗ ARBITER KEY LOG REFUSED ✗✗ unreadable") && unreadable.contains("canonical"), "a keys line not in canonical form is refused: " + unreadable);
        T.check(LogLine.read("ARBKEYS\t" + Crypto.base64urlOf("{\"keys\":[]}".getBytes(StandardCharsets.UTF_8)), fooled).contains("no keys or log list"), "a keys line without a log is refused");

        // An export carries keys and keyLog.
        Map<String, Object> export = new LinkedHashMap<>();
        export.put("keys", keysDoc(null, a, b, c));
        export.put("keyLog", log);
        TrustedKeys fromExport = new TrustedKeys(List.of(fa));
        KeyLog.Walk exportWalk = fromExport.learnExport(export);
        T.check(exportWalk.ok() && fromExport.isTrusted(c.fingerprint()), "an export's keyLog is walked from the pins: " + exportWalk.failure);
        Verifier exported = new Verifier(fromExport);
        T.check(exported.check(byA).ok() && exported.check(byB).ok() && exported.check(byC).ok(), "every receipt of the export checks in order");
        export.put("keyLog", Json.parseObject("{}"));
        T.check(new TrustedKeys(List.of(fa)).learnExport(export).failure.n == 0, "an export whose keyLog is not a list: refused");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> castMap(Object o) {
        return (Map<String, Object>) o;
    }

    static void moduleLog() throws Exception {
        Signer a = new Signer("ka"), b = new Signer("kb");
        List<Object> log = logOf(rotation(1, a, b, a));
        Receipt r1 = a.commit("g-m", 1, Verifier.GENESIS_PREV_HASH, "one", 1);
        Receipt r2 = b.commit("g-m", 2, r1.hash, "two", 2);
        String keysLine = LogLine.encodeKeys(keysDoc(log, a, b));
        ModuleLog roller = new ModuleLog(new TrustedKeys(List.of(a.fingerprint())));
        T.equal(roller.stateLine(), null, "nothing read: no state");
        List<String> shown = new ArrayList<>();
        for (String line : List.of(keysLine, LogLine.encode(r1), LogLine.encode(r2), LogLine.encode(r2), "<player1> hello")) shown.add(roller.read(line));
        T.check(shown.get(0).startsWith("✓ Arbiter keys") && shown.get(1).startsWith("✓ #1") && shown.get(2).startsWith("✓ #2") && shown.get(3).startsWith("✓ #2"), "keys line and receipts read ✓: " + shown);
        T.check(shown.get(4).startsWith("✗✗ ARBITER CHECK FAILED ✗✗ unreadable"), "a line that is not the kit's fails loudly when given: " + shown.get(4));
        T.equal(roller.lines(), List.of(keysLine, LogLine.encode(r1), LogLine.encode(r2)), "the kit lines, in order, each once");
        String state = roller.stateLine();
        T.check(ModuleLog.isStateLine(state) && state.indexOf('\n') < 0 && state.chars().filter(c -> c == '\t').count() == 4, "one state line: ARBSTATE, then the lines separated by spaces");

        ModuleLog joiner = new ModuleLog(new TrustedKeys(List.of(a.fingerprint())));
        List<String> restored = joiner.readState(state);
        T.equal(restored, List.of("✓ Arbiter: restored 2 receipts and 1 keys line of this game's log; every one checks"), "a player who joins (or loads the save) checks it all again: " + restored);
        T.equal(joiner.verifier().check(b.commit("g-m", 3, r2.hash, "three", 3)).status, Verifier.Status.OK, "... and the next receipt follows on, via the key log");
        Receipt forged = resign(withDie(r2, 6), new Signer("kb"));
        String doctored = state.replace(LogLine.encode(r2), LogLine.encode(forged));
        List<String> loud = new ModuleLog(new TrustedKeys(List.of(a.fingerprint()))).readState(doctored);
        T.check(loud.size() == 2 && loud.get(0).startsWith("✗✗ ARBITER ✗✗ restored 2 receipts") && loud.get(1).startsWith("✗✗ ARBITER CHECK FAILED ✗✗ #2"), "a forged receipt in a saved game is reported: " + loud);
        List<String> noKeys = new ModuleLog(new TrustedKeys(List.of(a.fingerprint())).learn("ka", a.x())).readState(ModuleLog.STATE_PREFIX + LogLine.encode(r1) + " " + LogLine.encode(r2));
        T.check(noKeys.size() == 2 && noKeys.get(1).startsWith("✗✗ ARBITER CHECK FAILED ✗✗ #2") && noKeys.get(1).contains("no public key known for kid \"kb\""), "a saved game without its keys line cannot check the new key's receipt, and says so: " + noKeys);
        List<String> junk = new ModuleLog(new TrustedKeys(List.of(a.fingerprint())).learn("ka", a.x())).readState(ModuleLog.STATE_PREFIX + LogLine.encode(r1) + "  CHAT<x>");
        T.check(junk.size() == 3 && junk.get(1).contains("unreadable") && junk.get(2).contains("unreadable"), "junk in a state line is reported, not skipped: " + junk);
        roller.reset();
        T.equal(roller.lines(), List.of(), "reset forgets the game");
        T.equal(roller.verifier().check(r2).status, Verifier.Status.GAP, "... its receipts (a new verifier), but not the keys learnt: #2 is genuine");
    }
}
