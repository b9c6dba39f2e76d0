package org.arbiter.kit.test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.arbiter.kit.Canonical;
import org.arbiter.kit.Crypto;
import org.arbiter.kit.Json;
import org.arbiter.kit.Receipt;

/**
 * The kit's canonical JSON and hashes against the TypeScript implementation: the fairness-v1
 * test vector (docs/fairness.md) and 1,000 random commits written by the Node driver with
 * domain/canonicalJson.ts and commitHash, given here in scrambled but equivalent JSON.
 * Usage: CrossCheckTests fairness-vector.json random-commits.jsonl
 */
public final class CrossCheckTests {
    public static void main(String[] args) {
        T.section("fairness-v1 test vector", () -> vector(Path.of(args[0])));
        T.section("1,000 random commits: canonical text and hash equal the TypeScript ones", () -> randomCommits(Path.of(args[1])));
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
}
