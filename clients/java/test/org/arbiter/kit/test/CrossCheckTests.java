package org.arbiter.kit.test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.arbiter.kit.Canonical;
import org.arbiter.kit.Crypto;
import org.arbiter.kit.Json;
import org.arbiter.kit.KeyLog;
import org.arbiter.kit.Receipt;

/**
 * The kit's canonical JSON and hashes against the TypeScript implementation: the fairness-v1
 * test vector (docs/fairness.md) and 1,000 random commits written by the Node driver with
 * domain/canonicalJson.ts and commitHash, given here in scrambled but equivalent JSON.
 * And the key log walk (trust.md §3) against domain/trust/keyLog.ts on 400 logs built by the
 * TypeScript code, valid and broken (changed bytes, wrong signers, reordered, renumbered, cut,
 * forged statements appended, unsigned members), from random pins and known keys.
 * Usage: CrossCheckTests fairness-vector.json random-commits.jsonl key-log-cases.json
 */
public final class CrossCheckTests {
    public static void main(String[] args) {
        T.section("fairness-v1 test vector", () -> vector(Path.of(args[0])));
        T.section("1,000 random commits: canonical text and hash equal the TypeScript ones", () -> randomCommits(Path.of(args[1])));
        T.section("400 key logs: the Java walk trusts what the TypeScript walk trusts, and stops where it stops", () -> keyLogs(Path.of(args[2])));
        System.exit(T.finish());
    }

    static void vector(Path file) throws Exception {
        Map<String, Object> v = Json.parseObject(Files.readString(file, StandardCharsets.UTF_8));
        byte[] seed = Crypto.hexBytes((String) v.get("serverSeed"));
        T.equal(Crypto.hex(Crypto.sha256(seed)), v.get("commitment"), "commitment = SHA-256(serverSeed)");
        Map<?, ?> none = (Map<?, ?>) v.get("noEntropy");
        String message = Canonical.write(v.get("noEntropyGameKeyInput"));
        T.equal(message, none.get("message"), "JCS of the game-key message, no entropy");
        byte[] gameKey = Crypto.hmacSha256(seed, message.getBytes(StandardCharsets.UTF_8));
        T.equal(Crypto.hex(gameKey), none.get("gameKey"), "gameKey, no entropy");
        T.equal(Crypto.hex(Crypto.hmacSha256(gameKey, "2:0".getBytes(StandardCharsets.US_ASCII))), none.get("block2_0"), "block(2,0)");
        dice(gameKey, none, "no entropy");
        Map<?, ?> with = (Map<?, ?>) v.get("withEntropy");
        String withMessage = Canonical.write(Json.parse("{\"gameId\":" + Canonical.write(v.get("gameId")) + ",\"entropy\":" + Canonical.write(with.get("entropy")) + "}"));
        T.equal(withMessage, with.get("message"), "JCS of the game-key message with entropy (TypeScript wrote it)");
        byte[] withKey = Crypto.hmacSha256(seed, withMessage.getBytes(StandardCharsets.UTF_8));
        T.equal(Crypto.hex(withKey), with.get("gameKey"), "gameKey with entropy");
        dice(withKey, with, "with entropy");
    }

    static void dice(byte[] gameKey, Map<?, ?> expected, String label) {
        T.equal(draw(gameKey, 2, 6, 10), numbers(expected.get("seq2d6")), "seq 2, ten d6, " + label);
        T.equal(draw(gameKey, 3, 20, 5), numbers(expected.get("seq3d20")), "seq 3, five d20, " + label);
        T.equal(draw(gameKey, 4, 1000, 5), numbers(expected.get("seq4d1000")), "seq 4, five d1000, " + label);
    }

    static List<Long> numbers(Object list) {
        List<Long> out = new ArrayList<>();
        for (Object n : (List<?>) list) out.add(((Json.JsonNumber) n).longValueExact());
        return out;
    }

    /** fairness-v1 §4: exact rejection sampling over the HMAC stream of one seq. */
    static List<Long> draw(byte[] gameKey, long seq, long sides, int count) {
        List<Long> out = new ArrayList<>();
        long limit = (1L << 32) - ((1L << 32) % sides);
        int block = 0;
        byte[] words = new byte[0];
        int at = 0;
        while (out.size() < count) {
            if (at == words.length) {
                words = Crypto.hmacSha256(gameKey, (seq + ":" + block++).getBytes(StandardCharsets.US_ASCII));
                at = 0;
            }
            long w = ((words[at] & 0xffL) << 24) | ((words[at + 1] & 0xffL) << 16) | ((words[at + 2] & 0xffL) << 8) | (words[at + 3] & 0xffL);
            at += 4;
            if (w < limit) out.add(w % sides + 1);
        }
        return out;
    }

    static void randomCommits(Path file) throws Exception {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        int canonicalSame = 0, hashSame = 0, differentInput = 0, n = 0;
        String firstProblem = null;
        for (String line : lines) {
            if (line.isEmpty()) continue;
            n++;
            Map<String, Object> c = Json.parseObject(line);
            String input = (String) c.get("input");
            try {
                Receipt r = Receipt.parse(input);
                String canonical = r.canonicalText();
                if (canonical.equals(c.get("canonical"))) canonicalSame++;
                else if (firstProblem == null) firstProblem = "line " + n + " canonical:\n  ts:   " + c.get("canonical") + "\n  java: " + canonical;
                String hash = r.computeHash();
                if (hash.equals(c.get("hash")) && hash.equals(r.hash)) hashSame++;
                else if (firstProblem == null) firstProblem = "line " + n + " hash: ts " + c.get("hash") + ", java " + hash;
                if (!input.equals(canonical)) differentInput++;
            } catch (Exception e) {
                if (firstProblem == null) firstProblem = "line " + n + ": " + e;
            }
        }
        T.equal(n, 1000, "1,000 random commits were written");
        T.check(differentInput > 900, "the inputs are not already canonical (" + differentInput + " differ)");
        T.equal(canonicalSame, n, "canonical text equal for every commit" + (firstProblem == null ? "" : "; first: " + firstProblem));
        T.equal(hashSame, n, "hash equal for every commit" + (firstProblem == null ? "" : "; first: " + firstProblem));
    }

    static void keyLogs(Path file) throws Exception {
        List<?> cases = (List<?>) Json.parse(Files.readString(file, StandardCharsets.UTF_8));
        int same = 0, failures = 0, reachedThroughLog = 0;
        for (int i = 0; i < cases.size(); i++) {
            Map<?, ?> c = (Map<?, ?>) cases.get(i);
            List<String> pinned = strings(c.get("pinned"));
            KeyLog.Walk walk = KeyLog.walk(c.get("log"), pinned, strings(c.get("known")));
            Map<String, Integer> expected = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) c.get("trusted")).entrySet()) expected.put((String) e.getKey(), ((Json.JsonNumber) e.getValue()).value.intValueExact());
            List<Integer> used = new ArrayList<>();
            for (Object n : (List<?>) c.get("used")) used.add(((Json.JsonNumber) n).value.intValueExact());
            Integer failure = c.get("failure") == null ? null : ((Json.JsonNumber) c.get("failure")).value.intValueExact();
            Integer actualFailure = walk.failure == null ? null : walk.failure.n;
            boolean agree = walk.trusted.equals(expected) && walk.used.equals(used) && java.util.Objects.equals(actualFailure, failure);
            if (!agree) {
                T.check(false, "key log case " + i + ": Java trusted " + walk.trusted + " used " + walk.used + " failure " + walk.failure
                        + "; TypeScript trusted " + expected + " used " + used + " failure at " + failure + "\n  log " + Canonical.write(c.get("log")));
                continue;
            }
            same++;
            if (failure != null) failures++;
            if (!used.isEmpty()) reachedThroughLog++;
        }
        T.equal(same, cases.size(), "every key log walked alike (" + failures + " refused a statement, " + reachedThroughLog + " reached a key through the log)");
        T.check(failures >= 100 && reachedThroughLog >= 50, "the cases exercise both refusals (" + failures + ") and hand-overs (" + reachedThroughLog + ")");
    }

    static List<String> strings(Object list) {
        List<String> out = new ArrayList<>();
        for (Object o : (List<?>) list) out.add((String) o);
        return out;
    }
}
