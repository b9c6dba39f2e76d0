package org.arbiter.kit.test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.arbiter.kit.ArbiterClient;
import org.arbiter.kit.Canonical;
import org.arbiter.kit.Crypto;
import org.arbiter.kit.Json;
import org.arbiter.kit.KeyLog;
import org.arbiter.kit.LogLine;
import org.arbiter.kit.Receipt;
import org.arbiter.kit.RollSession;
import org.arbiter.kit.TextLine;
import org.arbiter.kit.TrustedKeys;
import org.arbiter.kit.Verifier;

/**
 * A module that pinned the server's key before the server rotated it (trust.md §3). run.mjs runs
 * this twice around `npm run rotate-key` on the local server's data directory:
 * <ul>
 * <li>{@code before URL OLD_FP STATE}: a game is played with the key the module pins; the game
 * log's lines and the GET /keys the designer pasted into the module are saved in STATE;</li>
 * <li>{@code after URL OLD_FP STATE NEW_FP EXPECTED_WALK}: the same game goes on after the
 * rotation. The module still pins only the old fingerprint: new receipts check through the
 * server's key log (from GET /keys, from the keys line in the game log, from the export), and
 * a changed, wrongly signed or unrooted key log, or a forged receipt, fails loudly.
 * EXPECTED_WALK is the TypeScript walk of the served log, which the Java walk must equal.</li>
 * </ul>
 */
public final class RotationLiveTests {
    static ArbiterClient client;

    public static void main(String[] args) {
        client = new ArbiterClient(args[1]).timeouts(2_000, 10_000).retries(3, 5, 100);
        String oldFp = args[2];
        Path state = Path.of(args[3]);
        if (args[0].equals("before")) {
            T.section("before the rotation: a game with the pinned key, its log saved", () -> before(oldFp, state));
        } else {
            String newFp = args[4];
            Path expected = Path.of(args[5]);
            T.section("after the rotation: GET /keys lists both keys and the signed statement", () -> keysAfter(oldFp, newFp, expected));
            T.section("after the rotation: a module pinning only the old key checks new receipts through the key log", () -> after(oldFp, newFp, state));
            T.section("after the rotation: broken key logs and forged receipts fail loudly", () -> broken(oldFp, newFp, state));
            T.section("after the rotation: the export's keyLog", () -> export(oldFp, newFp, state));
        }
        System.exit(T.finish());
    }

    static void before(String oldFp, Path state) throws Exception {
        Map<String, Object> keys = client.keys();
        List<?> listed = (List<?>) keys.get("keys");
        T.equal(listed.size(), 1, "one key before any rotation");
        T.equal(Crypto.fingerprintOf((String) ((Map<?, ?>) listed.get(0)).get("x")), oldFp, "... whose fingerprint is the one pinned");
        T.equal(keys.get("log"), List.of(), "an empty key log");
        Map<String, Object> game = client.createGame("dice", null);
        String gameId = (String) game.get("gameId");
        Map<?, ?> tokens = (Map<?, ?>) game.get("tokens");
        Map<?, ?> players = (Map<?, ?>) tokens.get("players");
        RollSession seat = new RollSession(client, gameId, (String) players.get("player1"));
        List<String> lines = new ArrayList<>();
        lines.add(seat.keysLine()); // joining: the keys line, then the history
        lines.addAll(seat.history(0));
        RollSession.Outcome roll = seat.send("Roll", "{\"dice\":\"2d6\",\"purpose\":\"before the rotation\"}", "Roll 2d6");
        T.check(roll.ok() && roll.logLines.size() == 1, "a roll before the rotation: one receipt line, no new keys line " + roll.failureChatLine);
        lines.addAll(roll.logLines);
        Verifier opponent = new Verifier(new TrustedKeys(List.of(oldFp)).learnAll(keys));
        for (String line : lines) {
            String chat = LogLine.read(line, opponent);
            T.check(chat.startsWith("✓"), "the opponent reads: " + chat);
        }
        Map<String, Object> saved = new LinkedHashMap<>();
        saved.put("gameId", gameId);
        saved.put("player1", players.get("player1"));
        saved.put("player2", players.get("player2"));
        saved.put("organizer", tokens.get("organizer"));
        saved.put("moduleKeys", keys); // what the designer pasted into the module before the rotation
        saved.put("lines", lines);
        Files.writeString(state, Canonical.write(saved), StandardCharsets.UTF_8);
    }

    static Map<String, Object> load(Path state) throws Exception {
        return Json.parseObject(Files.readString(state, StandardCharsets.UTF_8));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    static List<String> lines(Map<String, Object> s) {
        List<String> out = new ArrayList<>();
        for (Object o : (List<?>) s.get("lines")) out.add((String) o);
        return out;
    }

    /** A module as the designer made it before the rotation: the old pin and the old GET /keys. */
    static Verifier module(String oldFp, Map<String, Object> s) {
        return new Verifier(new TrustedKeys(List.of(oldFp)).learnAll(map(s.get("moduleKeys"))));
    }

    static void keysAfter(String oldFp, String newFp, Path expectedFile) throws Exception {
        T.check(!oldFp.equals(newFp), "the rotation made a new key");
        Map<String, Object> keys = client.keys();
        Map<String, String> status = new LinkedHashMap<>();
        for (Object k : (List<?>) keys.get("keys")) {
            Map<?, ?> jwk = (Map<?, ?>) k;
            status.put(Crypto.fingerprintOf((String) jwk.get("x")), (String) jwk.get("status"));
        }
        T.equal(status, Map.of(oldFp, "retired", newFp, "current"), "GET /keys: the old key retired, the new one current");
        List<?> log = (List<?>) keys.get("log");
        T.equal(log.size(), 1, "one statement in the key log");
        Map<?, ?> statement = (Map<?, ?>) log.get(0);
        T.equal(statement.get("previous"), oldFp, "statement 1 retires the old key");
        T.equal(Crypto.fingerprintOf((String) ((Map<?, ?>) statement.get("next")).get("x")), newFp, "... for the new one");
        KeyLog.Walk walk = KeyLog.walk(log, List.of(oldFp), List.of());
        T.check(walk.failure != null && walk.failure.reason.startsWith("cannot be checked"), "without the old public key the statement cannot be checked: " + walk.failure);
        List<String> xs = new ArrayList<>();
        for (Object k : (List<?>) keys.get("keys")) xs.add((String) ((Map<?, ?>) k).get("x"));
        walk = KeyLog.walk(log, List.of(oldFp), xs);
        T.equal(walk.trusted, Map.of(oldFp, 0, newFp, 1), "the Java walk from the old pin reaches the new key through statement 1");
        Map<String, Object> expected = Json.parseObject(Files.readString(expectedFile, StandardCharsets.UTF_8));
        Map<String, Integer> tsTrusted = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : map(expected.get("trusted")).entrySet()) tsTrusted.put(e.getKey(), ((Json.JsonNumber) e.getValue()).value.intValueExact());
        T.equal(walk.trusted, tsTrusted, "... as the TypeScript walk (domain/trust/keyLog.ts) of the same log does");
        T.equal(expected.get("failure"), null, "... which refused nothing either");
    }

    static void after(String oldFp, String newFp, Path state) throws Exception {
        Map<String, Object> s = load(state);
        String gameId = (String) s.get("gameId");
        List<String> log = new ArrayList<>(lines(s));
        // Replays of the log written before the rotation still check.
        Verifier replay = module(oldFp, s);
        for (String line : log) T.check(LogLine.read(line, replay).startsWith("✓"), "the old log replays ✓ after the rotation");

        // Player 2 rolls in the same game; the seat notices the new kid and puts GET /keys in the log first.
        RollSession seat = new RollSession(client, gameId, (String) s.get("player2"));
        seat.noteKidsInLog(map(s.get("moduleKeys")));
        RollSession.Outcome roll = seat.send("Roll", "{\"dice\":\"3d6\",\"purpose\":\"after the rotation\"}", "Roll 3d6");
        T.check(roll.ok(), "a roll after the rotation: " + roll.failureChatLine);
        T.equal(roll.logLines.size(), 2, "the seat posts a keys line, then the receipt");
        T.check(LogLine.isKeysLine(roll.logLines.get(0)) && LogLine.isArbiterLine(roll.logLines.get(1)), "... in that order");
        Receipt r = roll.receipts.get(0);
        T.check(Crypto.fingerprintOf(xOfKid(client.keys(), r.kid)).equals(newFp), "the new receipt is signed by the new key");

        // The module as shipped, without the key log: the new receipt fails, loudly (the old behaviour).
        Verifier.Check shipped = module(oldFp, s).check(r);
        T.equal(shipped.status, Verifier.Status.INVALID, "the module without the key log cannot accept the new receipt");
        T.check(shipped.problems.toString().contains("no public key known for kid"), "... and says so: " + shipped.problems);

        // GET /keys through ArbiterClient: the log takes the old pin to the new key.
        Verifier live = module(oldFp, s);
        for (String line : log) LogLine.read(line, live);
        live.keys().learnAll(client.keys());
        T.equal(live.keys().reached(), Map.of(newFp, 1), "GET /keys: the old pin reaches the new key via statement 1");
        Verifier.Check viaKeys = live.check(r);
        T.equal(viaKeys.status, Verifier.Status.OK, "the new receipt checks through the key log " + viaKeys.problems);
        T.equal(viaKeys.signerFingerprint, newFp, "... signed by the new key");
        T.equal(viaKeys.signerVia, 1, "... reached through statement 1");

        // The opponent reads the game log (old lines, then the seat's): the keys line carries the key log to every client and replay.
        log.addAll(roll.logLines);
        Verifier opponent = module(oldFp, s);
        List<String> chat = new ArrayList<>();
        for (String line : log) chat.add(LogLine.read(line, opponent));
        for (String line : chat) T.check(line.startsWith("✓") && safe(line), "the opponent reads: " + line);
        String keysChat = chat.get(chat.size() - 2), receiptChat = chat.get(chat.size() - 1);
        T.check(keysChat.contains(LogLine.shortFingerprint(newFp) + " via key log #1"), "the keys line says the new key is trusted through the key log: " + keysChat);
        T.check(receiptChat.startsWith("✓ #" + r.seq + " player2 Roll \"after the rotation\" 3d6") && receiptChat.endsWith("[" + LogLine.shortFingerprint(newFp) + " via key log #1]"), "the receipt line: " + receiptChat);
        System.out.println("   " + keysChat);
        System.out.println("   " + receiptChat);
        T.equal(opponent.missing(gameId), List.of(), "no gap across the rotation");

        // A module that pinned only the new key does not accept receipts of the old one: the log is never walked backwards.
        Verifier newOnly = new Verifier(new TrustedKeys(List.of(newFp)).learnAll(client.keys()));
        Verifier.Check old = LogLine.check(log.get(1), newOnly);
        T.equal(old.status, Verifier.Status.INVALID, "pinning only the new key: a receipt of the old key is INVALID");
        T.check(old.problems.toString().contains("signed by " + oldFp + ", which this module does not pin and no pinned key reaches"), "... naming the old key: " + old.problems);
        Files.writeString(state, Canonical.write(with(s, "lines", log)), StandardCharsets.UTF_8);
    }

    static void broken(String oldFp, String newFp, Path state) throws Exception {
        Map<String, Object> s = load(state);
        String gameId = (String) s.get("gameId");
        Map<String, Object> keys = client.keys();
        Map<String, Object> statement = map(((List<?>) keys.get("log")).get(0));
        Receipt r = client.command(gameId, (String) s.get("player1"), ArbiterClient.newCommandId(), "Roll", "{\"dice\":\"d6\",\"purpose\":\"checked against broken logs\"}");
        T.equal(new Verifier(new TrustedKeys(List.of(oldFp)).learnAll(keys)).check(r).status, Verifier.Status.GAP, "with the genuine log the receipt is genuine (a GAP only: this verifier saw nothing before it)");

        // One byte changed in the statement.
        String changedAt = ((String) statement.get("at")).replace('2', '3');
        Verifier changed = module(oldFp, s);
        String refused = LogLine.read(LogLine.encodeKeys(with(keys, "log", List.of(with(statement, "at", changedAt)))), changed);
        T.check(refused.startsWith("✗✗ ARBITER KEY LOG REFUSED ✗✗ key log statement 1 does not hash"), "a changed byte in the key log is refused: " + refused);
        Verifier.Check afterChanged = changed.check(r);
        T.check(afterChanged.status == Verifier.Status.INVALID && afterChanged.problems.toString().contains("key log statement 1 does not hash"), "... and the new key's receipt fails, saying why: " + afterChanged.problems);
        System.out.println("   " + refused);
        System.out.println("   " + LogLine.chatLine(afterChanged));

        // The wrong signer: a forger hands the old key over to itself, hash recomputed, signed with its own key.
        KeyPair forger = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        String forgerX = Crypto.xOf(forger.getPublic());
        Map<String, Object> next = new LinkedHashMap<>(map(statement.get("next")));
        next.put("x", forgerX);
        next.put("kid", r.kid); // under the server's new kid
        Map<String, Object> forgedStatement = sign(with(statement, "next", next), forger);
        Verifier wrongSigner = module(oldFp, s);
        String refusedSigner = LogLine.read(LogLine.encodeKeys(with(keys, "log", List.of(forgedStatement))), wrongSigner);
        T.check(refusedSigner.startsWith("✗✗ ARBITER KEY LOG REFUSED ✗✗ key log statement 1 is not signed by " + oldFp), "a statement signed by another key than the one it retires is refused: " + refusedSigner);
        Receipt forgedReceipt = resign(r.with(Map.of("dice", Json.parse("[{\"sides\":6,\"value\":6}]"))), forger, r.kid);
        T.equal(wrongSigner.check(forgedReceipt).status, Verifier.Status.INVALID, "... and a receipt signed by the forger's key is INVALID");
        // The genuine log next to the forged one: the genuine key counts, the forger's does not.
        wrongSigner.keys().learnAll(keys);
        T.equal(wrongSigner.check(forgedReceipt).status, Verifier.Status.INVALID, "with the genuine log learnt too, the forged receipt (re-signed under the new kid) is still INVALID");
        T.equal(wrongSigner.check(r).status, Verifier.Status.GAP, "... and the genuine one is genuine");
        // A forged statement appended to the genuine log: retiring the new key for the forger's, signed by the forger.
        Map<String, Object> appended = new LinkedHashMap<>(statement);
        appended.put("n", Json.JsonNumber.of(2));
        appended.put("previous", newFp);
        appended.put("next", next);
        Verifier extended = module(oldFp, s);
        String refusedAppended = LogLine.read(LogLine.encodeKeys(with(keys, "log", List.of(statement, sign(appended, forger)))), extended);
        T.check(refusedAppended.startsWith("✗✗ ARBITER KEY LOG REFUSED ✗✗ key log statement 2 is not signed by " + newFp) && refusedAppended.contains(LogLine.shortFingerprint(newFp) + " via key log #1"), "a forged statement 2 after the genuine one is refused, the genuine hand-over kept: " + refusedAppended);
        T.equal(extended.check(forgedReceipt).status, Verifier.Status.INVALID, "... the forger's receipt is INVALID");
        T.equal(extended.check(r).status, Verifier.Status.GAP, "... the server's is genuine");

        // A chain that does not start at a pinned key: the module pins some other key.
        KeyPair other = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        String otherFp = Crypto.fingerprintOf(Crypto.xOf(other.getPublic()));
        Verifier unrooted = new Verifier(new TrustedKeys(List.of(otherFp)).learnAll(keys));
        Verifier.Check unrootedCheck = unrooted.check(r);
        T.check(unrootedCheck.status == Verifier.Status.INVALID && unrootedCheck.problems.toString().contains("no pinned key reaches"), "a key log that does not start at a pinned key trusts nothing: " + unrootedCheck.problems);
        T.equal(unrooted.keys().reached(), Map.of(), "... nothing reached");
    }

    static void export(String oldFp, String newFp, Path state) throws Exception {
        Map<String, Object> s = load(state);
        String gameId = (String) s.get("gameId");
        Map<String, Object> keys = client.keys();
        client.command(gameId, (String) s.get("organizer"), ArbiterClient.newCommandId(), "Seal", "{}");
        Map<String, Object> export = client.export(gameId, (String) s.get("player2"));
        T.equal(Canonical.write(export.get("keyLog")), Canonical.write(keys.get("log")), "the export carries the key log of GET /keys as keyLog");
        TrustedKeys trusted = new TrustedKeys(List.of(oldFp)); // nothing but the old pin: no keys shipped
        KeyLog.Walk walk = trusted.learnExport(export);
        T.check(walk.ok() && walk.trusted.equals(Map.of(oldFp, 0, newFp, 1)), "the export's keyLog, walked from the old pin, reaches the new key: " + walk.trusted + " " + walk.failure);
        Verifier v = new Verifier(trusted);
        int ok = 0, viaLog = 0;
        List<?> commits = (List<?>) export.get("commits");
        for (Object c : commits) {
            Verifier.Check check = v.check(Receipt.of(map(c)));
            if (check.ok()) ok++;
            if (check.ok() && check.signerVia == 1) viaLog++;
        }
        T.equal(ok, commits.size(), "every commit of the export checks in order, across the rotation");
        T.check(viaLog >= 3 && viaLog < commits.size(), "commits after the rotation (" + viaLog + ") checked through the key log, the others by the pin");
        Map<String, Object> noLog = new LinkedHashMap<>(export);
        noLog.remove("keyLog");
        Verifier without = new Verifier(new TrustedKeys(List.of(oldFp)));
        without.keys().learnExport(noLog);
        int failed = 0;
        for (Object c : commits) if (!without.check(Receipt.of(map(c))).ok()) failed++;
        T.equal(failed, viaLog, "an export stripped of its keyLog: exactly the new key's commits fail");
    }

    static String xOfKid(Map<String, Object> keys, String kid) {
        for (Object k : (List<?>) keys.get("keys")) if (kid.equals(((Map<?, ?>) k).get("kid"))) return (String) ((Map<?, ?>) k).get("x");
        return null;
    }

    static Map<String, Object> with(Map<String, Object> m, String key, Object value) {
        Map<String, Object> copy = new LinkedHashMap<>(m);
        copy.put(key, value);
        return copy;
    }

    /** Hashes a statement (trust.md §3) and signs it with {@code key}. */
    static Map<String, Object> sign(Map<String, Object> statement, KeyPair key) throws Exception {
        Map<String, Object> unsigned = new LinkedHashMap<>(statement);
        unsigned.remove("hash");
        unsigned.remove("signature");
        String hash = KeyLog.statementHash(unsigned);
        Signature s = Signature.getInstance("Ed25519");
        s.initSign(key.getPrivate());
        s.update(Crypto.hexBytes(hash));
        unsigned.put("hash", hash);
        unsigned.put("signature", Base64.getEncoder().encodeToString(s.sign()));
        return unsigned;
    }

    static Receipt resign(Receipt r, KeyPair key, String kid) throws Exception {
        Receipt kidded = r.with(Map.of("kid", kid));
        String hash = kidded.computeHash();
        Signature s = Signature.getInstance("Ed25519");
        s.initSign(key.getPrivate());
        s.update(Crypto.hexBytes(hash));
        return kidded.with(Map.of("hash", hash, "signature", Base64.getEncoder().encodeToString(s.sign())));
    }

    static boolean safe(String line) {
        for (int i = 0; i < line.length(); i++) if (TextLine.isUnsafe(line.charAt(i))) return false;
        return true;
    }
}
