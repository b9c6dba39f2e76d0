package org.arbiter.kit.test;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.arbiter.kit.ArbiterClient;
import org.arbiter.kit.BeaconChain;
import org.arbiter.kit.BeaconVerifier;
import org.arbiter.kit.Canonical;
import org.arbiter.kit.Crypto;
import org.arbiter.kit.DiceStream;
import org.arbiter.kit.Json;
import org.arbiter.kit.LogLine;
import org.arbiter.kit.Receipt;
import org.arbiter.kit.RollSession;
import org.arbiter.kit.SenderCheck;
import org.arbiter.kit.TrustedKeys;

/**
 * Beacon games (docs/beacon.md) in the kit: the §3 test vector as docs/beacon.md publishes it;
 * a sealed beacon game built by the TypeScript domain on the spec's real quicknet rounds
 * verifies, and each way a dishonest server could sign it differently fails; a chain of the
 * tests' own counts only when pinned; the sender's check (§6) with a fixed clock; and the
 * client's handling of 202, a reveal, 409 beacon_pending and a retried commandId against a
 * scripted loopback server.
 * Usage: BeaconTests beacon-vector.json beacon-games.json
 */
public final class BeaconTests {
    static Map<String, Object> games;

    public static void main(String[] args) {
        T.section("beacon.md §3 test vector", () -> vector(Path.of(args[0])));
        T.section("a sealed quicknet beacon game built by the TypeScript domain verifies", () -> {
            games = Json.parseObject(Files.readString(Path.of(args[1]), StandardCharsets.UTF_8));
            sealedGame();
        });
        T.section("a dishonest server's variants of that game, re-signed with its key, each fail", BeaconTests::tampered);
        T.section("a chain of the tests' own: refused unless pinned by its hash", BeaconTests::ownChain);
        T.section("an unsealed beacon game: the pairs check, the dice wait for the seal", BeaconTests::unsealed);
        T.section("round arithmetic: time(r) and the round a commit waits for", BeaconTests::rounds);
        T.section("the sender's check (§6) with a fixed clock", BeaconTests::senderCheck);
        T.section("the client: 202, the sender's line, the reveal, 409 beacon_pending, a retried commandId", BeaconTests::client);
        System.exit(T.finish());
    }

    static void vector(Path file) throws Exception {
        Map<String, Object> v = Json.parseObject(Files.readString(file, StandardCharsets.UTF_8));
        String signature = (String) v.get("signature");
        String randomness = Crypto.hex(Crypto.sha256(Crypto.hexBytes(signature)));
        T.equal(randomness, v.get("randomness"), "randomness(r) = SHA-256(signature)");
        long round = ((Json.JsonNumber) v.get("round")).longValueExact();
        T.equal("drand/" + v.get("chainHash") + "/" + round + "/" + randomness, v.get("message"), "the beacon key's message");
        T.equal(v.get("chainHash"), BeaconChain.QUICKNET.chainHash, "the vector is on quicknet");
        byte[] gameKey = BeaconVerifier.gameKey((String) v.get("serverSeed"), (String) v.get("gameId"), List.of());
        byte[] beaconKey = BeaconVerifier.beaconKey(gameKey, (String) v.get("chainHash"), round, signature);
        T.equal(Crypto.hex(beaconKey), v.get("beaconKey"), "beaconKey");
        T.equal(Crypto.hex(Crypto.hmacSha256(beaconKey, "2:0".getBytes(StandardCharsets.US_ASCII))), v.get("block0n2"), "block(0) for n = 2");
        T.equal(roll(beaconKey, 2, 6, 10), v.get("n2d6"), "n = 2, ten d6");
        T.equal(roll(beaconKey, 3, 20, 5), v.get("n3d20"), "n = 3, five d20");
        T.check(!roll(gameKey, 2, 6, 10).equals(v.get("n2d6")), "the game key alone gives other dice");
    }

    static List<Object> roll(byte[] key, long seq, int sides, int count) {
        DiceStream stream = new DiceStream(key, seq);
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < count; i++) out.add(Json.JsonNumber.of(stream.roll(sides)));
        return out;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    static BeaconVerifier.Result verify(Map<String, Object> export, String fingerprint, List<String> pinnedChains) {
        TrustedKeys keys = new TrustedKeys(List.of(fingerprint));
        keys.learnExport(export);
        return BeaconVerifier.verifyExport(export, keys, pinnedChains);
    }

    static void sealedGame() {
        Map<String, Object> game = map(games.get("game"));
        BeaconVerifier.Result result = verify(game, (String) games.get("fingerprint"), List.of());
        T.check(result.ok(), "the game verifies: " + result.problems);
        T.check(result.beaconGame && "quicknet".equals(result.chain), "a beacon game on quicknet");
        T.equal(result.revealed, 4, "four rolls, each a pending commit and its reveal");
        T.equal(result.diceChecked, 8, "3d6, 1d20, 2d6+1d10 and 1d6: eight dice from the seed and the beacons");
        T.check(result.sealed, "sealed");
        T.check(result.notes.contains(BeaconVerifier.BLS_NOT_CHECKED), "the result says the BLS signatures were not checked: " + result.notes);
        String summary = result.summary();
        System.out.println("   " + summary);
        T.check(summary.startsWith("✓ beacon game on quicknet: 4 rolls, each revealed by the round it named") && summary.contains("8 dice follow") && summary.endsWith(BeaconVerifier.BLS_NOT_CHECKED), "summary: " + summary);
        // The same export with the game's key unpinned: every commit fails its signature check.
        BeaconVerifier.Result unpinned = BeaconVerifier.verifyExport(game, new TrustedKeys(List.of()).learnAll(map(game.get("keys"))), List.of());
        T.check(!unpinned.ok() && unpinned.problems.get(0).contains("pin"), "with no pinned key, the export does not verify: " + unpinned.problems);
        // The reveal's chat line names its pending commit and round; the pending one its round.
        List<?> commits = (List<?>) game.get("commits");
        String pendingLine = chat(map(commits.get(2)), (String) games.get("fingerprint"), commits);
        T.check(pendingLine.matches("✓ #3 player1 Roll \"assault on Carentan\" 3d6 waits for drand round \\d+ at \\S+Z \\[ed25519:.{8}\\]"), "pending chat line: " + pendingLine);
        String revealLine = chat(map(commits.get(3)), (String) games.get("fingerprint"), commits);
        T.check(revealLine.matches("✓ #4 server RevealBeacon of #3 \\(drand round \\d+\\) \"assault on Carentan\", dice \\d \\d \\d = \\d+ \\[ed25519:.{8}\\]"), "reveal chat line: " + revealLine);
        System.out.println("   " + pendingLine);
        System.out.println("   " + revealLine);
    }

    /** The chat line of one commit, read after those before it, as a module reading the log shows it. */
    static String chat(Map<String, Object> commit, String fingerprint, List<?> commits) {
        try {
            org.arbiter.kit.Verifier verifier = new org.arbiter.kit.Verifier(new TrustedKeys(List.of(fingerprint)).learnAll(map(map(games.get("game")).get("keys"))));
            String line = null;
            for (Object c : commits) {
                line = LogLine.read(LogLine.encode(Receipt.of(map(c))), verifier);
                if (c == commit) return line;
            }
            return line;
        } catch (Exception e) {
            return "unexpected " + e;
        }
    }

    static void tampered() {
        List<?> cases = (List<?>) games.get("tampered");
        T.check(cases.size() >= 9, "the driver wrote the tampered variants (" + cases.size() + ")");
        for (Object o : cases) {
            Map<String, Object> c = map(o);
            String name = (String) c.get("name");
            BeaconVerifier.Result result = verify(map(c.get("export")), (String) games.get("fingerprint"), List.of());
            T.check(!result.ok(), name + ": fails");
            String expect = (String) c.get("expect");
            T.check(result.problems.stream().anyMatch(p -> p.contains(expect)), name + ": a problem says \"" + expect + "\": " + result.problems);
            T.check(result.problems.stream().noneMatch(p -> p.contains("signature") && !p.contains("its signature is not") || p.contains("hash mismatch")),
                    name + ": re-signed by the server's own key, so only the beacon rules catch it: " + result.problems);
            if (name.startsWith("entropy added")) T.equal(result.problems.size(), 1, "late entropy: that one problem (it does not count in the game key): " + result.problems);
            if (name.contains("swapped")) {
                T.equal(result.problems.size(), 2, "the swapped pair: the reveal that comes first, and the roll whose next commit is not its reveal; nothing else: " + result.problems);
            }
            String summary = result.summary();
            T.check(summary.startsWith("✗✗ ARBITER BEACON CHECK FAILED ✗✗") && summary.endsWith(BeaconVerifier.BLS_NOT_CHECKED) && OfflineTests.safe(summary), name + ": summary " + summary);
            System.out.println("   " + name + ": " + summary);
        }
    }

    static void ownChain() {
        Map<String, Object> own = map(games.get("ownChain"));
        Map<String, Object> game = map(own.get("game"));
        String hash = (String) own.get("chainHash");
        BeaconVerifier.Result unpinned = verify(game, (String) own.get("fingerprint"), List.of());
        T.check(!unpinned.ok() && unpinned.problems.get(0).contains("you did not pin it"), "unpinned: refused: " + unpinned.problems);
        BeaconVerifier.Result pinned = verify(game, (String) own.get("fingerprint"), List.of(hash));
        T.check(pinned.ok(), "pinned by its hash: verifies: " + pinned.problems);
        T.equal(pinned.chain, "arbiter-test", "the chain's name");
        T.equal(pinned.diceChecked, 8, "its dice follow from the seed and its beacons");
        T.check(pinned.notes.stream().anyMatch(n -> n.contains("you pinned its hash")), "the result says why the chain is trusted: " + pinned.notes);
        BeaconVerifier.Result otherPin = verify(game, (String) own.get("fingerprint"), List.of(BeaconChain.QUICKNET.chainHash, "00".repeat(32)));
        T.check(!otherPin.ok(), "pinning other chains does not admit it");
        String key = (String) own.get("publicKey");
        BeaconVerifier.Result bound = verify(game, (String) own.get("fingerprint"), List.of(hash + ":" + key));
        T.check(bound.ok() && bound.notes.stream().anyMatch(n -> n.contains("pinned its hash and public key")), "pinned as HASH:PUBLICKEY: verifies: " + bound.problems);
        String otherKey = (key.charAt(0) == 'a' ? "b" : "a") + key.substring(1);
        BeaconVerifier.Result wrongKey = verify(game, (String) own.get("fingerprint"), List.of(hash + ":" + otherKey));
        T.check(!wrongKey.ok() && wrongKey.problems.get(0).contains("another public key than the one you pinned"), "the pinned hash with another key than the file's: refused: " + wrongKey.problems);
    }

    static void unsealed() {
        Map<String, Object> u = map(games.get("unsealed"));
        BeaconVerifier.Result result = verify(map(u.get("game")), (String) u.get("fingerprint"), List.of());
        T.check(result.ok(), "an unsealed game's pairs check: " + result.problems);
        T.check(!result.sealed && result.diceChecked == 0 && result.revealed == 4, "no dice checked before the seal; four pairs");
        T.check(result.summary().contains("dice checkable once the game is sealed"), "summary: " + result.summary());
    }

    static void rounds() throws Exception {
        BeaconChain q = BeaconChain.QUICKNET;
        T.equal(q.roundTimeMs(1), 1692803367000L, "time(1) = genesis");
        T.equal(q.roundAt(1000), "2023-08-23T15:59:24.000Z", "time(1000), written as the server writes it");
        long t = q.roundTimeMs(12040883);
        T.equal(q.pendingRoundFor(t - 3000), 12040883L, "recorded exactly one period before round r: r");
        T.equal(q.pendingRoundFor(t - 3000 + 1), 12040884L, "one millisecond later: r + 1");
        T.equal(q.pendingRoundFor(t - 5999), 12040883L, "almost two periods before: r");
        T.equal(q.pendingRoundFor(0), 1L, "before genesis: round 1");
        T.throwsLike(BeaconChain.MalformedChain.class, "scheme", "another scheme is refused",
                () -> BeaconChain.of(Json.parse("{\"chain\":\"x\",\"chainHash\":\"" + "0".repeat(64) + "\",\"publicKey\":\"" + "0".repeat(192) + "\",\"period\":3,\"genesis\":1,\"scheme\":\"bls-chained\"}")));
        T.throwsLike(BeaconChain.MalformedChain.class, "unknown member", "an extra member is refused",
                () -> BeaconChain.of(Json.parse("{\"chain\":\"x\",\"chainHash\":\"" + "0".repeat(64) + "\",\"publicKey\":\"" + "0".repeat(192) + "\",\"period\":3,\"genesis\":1,\"scheme\":\"bls-unchained-g1-rfc9380\",\"__proto__\":1}")));
    }

    static void senderCheck() {
        BeaconChain q = BeaconChain.QUICKNET;
        long r = 12040883, at = q.roundTimeMs(r);
        String roundAt = q.roundAt(r);
        SenderCheck ahead = SenderCheck.of(q, r, roundAt, at - 2_500);
        T.check(ahead.inFuture, "2.5 s before the round: in the future");
        T.equal(ahead.line, "round 12040883 was still in the future when the server accepted ✓", "the ✓ line");
        T.check(SenderCheck.of(q, r, roundAt, at + 1_999).inFuture, "1.999 s after it: within the 2 s allowed for clocks");
        SenderCheck late = SenderCheck.of(q, r, roundAt, at + 2_000);
        T.check(!late.inFuture, "2 s after it: published before the acceptance arrived");
        T.check(late.line.startsWith("⚠ round 12040883 was already published 2.0 s before") && late.line.contains("the server may have waited for that beacon before accepting")
                && late.line.contains("could have known the dice") && OfflineTests.safe(late.line), "the warning says what it means: " + late.line);
        SenderCheck lying = SenderCheck.of(q, r, q.roundAt(r + 100), at - 10_000);
        T.check(!lying.inFuture && lying.line.contains("but the server announced it for"), "a roundAt that is not the chain's time of r: " + lying.line);
        SenderCheck noChain = SenderCheck.of(null, r, roundAt, at - 10_000);
        T.check(noChain.inFuture, "without the chain, the announced roundAt is used");
        SenderCheck garbage = SenderCheck.of(null, r, "soon\u202e", at);
        T.check(!garbage.inFuture && garbage.line.startsWith("⚠") && OfflineTests.safe(garbage.line), "an unreadable roundAt: a warning: " + garbage.line);
    }

    /** A scripted loopback server: the answers of a beacon game's roll, with the commits of the TypeScript-built game. */
    static final class Scripted implements AutoCloseable {
        final HttpServer server;
        final List<String> requests = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger eventPolls = new AtomicInteger();
        volatile int commandStatus = 202;
        volatile String commandBody;
        volatile int busy409;
        volatile String revealPage;
        volatile int emptyPolls;

        Scripted() throws IOException {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", this::handle);
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        void handle(HttpExchange ex) throws IOException {
            String path = ex.getRequestURI().toString();
            requests.add(ex.getRequestMethod() + " " + path);
            ex.getRequestBody().readAllBytes();
            if (path.endsWith("/commands")) {
                if (busy409 > 0) {
                    busy409--;
                    ex.getResponseHeaders().add("Retry-After", "1");
                    send(ex, 409, "{\"error\":{\"code\":\"beacon_pending\",\"message\":\"a roll waits for its beacon\",\"details\":{\"round\":5,\"roundAt\":\"x\"}}}");
                } else {
                    send(ex, commandStatus, commandBody);
                }
            } else if (path.contains("/events?")) {
                send(ex, 200, eventPolls.incrementAndGet() <= emptyPolls ? "{\"gameId\":\"g-beacon\",\"version\":3,\"commits\":[]}" : revealPage);
            } else {
                send(ex, 404, "{\"error\":{\"code\":\"not_found\",\"message\":\"\"}}");
            }
        }

        static void send(HttpExchange ex, int status, String body) throws IOException {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    static void client() throws Exception {
        List<?> commits = (List<?>) map(games.get("game")).get("commits");
        Map<String, Object> pendingRecord = map(commits.get(2));
        Receipt pending = Receipt.of(pendingRecord);
        Receipt reveal = Receipt.of(map(commits.get(3)));
        Map<?, ?> data = (Map<?, ?>) pending.events().get(0).get("data");
        long round = ((Json.JsonNumber) data.get("round")).longValueExact();
        try (Scripted server = new Scripted()) {
            server.commandBody = "{\"version\":3,\"commit\":" + Canonical.write(pendingRecord) + ",\"beacon\":{\"chain\":\"quicknet\",\"round\":" + round + ",\"roundAt\":" + Canonical.write(data.get("roundAt")) + "}}";
            server.revealPage = "{\"gameId\":\"g-beacon\",\"version\":4,\"commits\":[" + Canonical.write(reveal.record) + "]}";
            server.emptyPolls = 2;
            ArbiterClient client = new ArbiterClient(server.url()).timeouts(2_000, 5_000).retries(2, 5, 50);

            ArbiterClient.CommandAnswer answer = client.submit("g-beacon", "token", ArbiterClient.newCommandId(), "Roll", "{\"dice\":\"3d6\",\"purpose\":\"assault on Carentan\"}", null);
            T.check(answer.status == 202 && answer.pending() && answer.round == round && data.get("roundAt").equals(answer.roundAt) && "quicknet".equals(answer.chain),
                    "202: the pending commit, its round and roundAt, the chain");
            T.equal(client.command("g-beacon", "token", ArbiterClient.newCommandId(), "Roll", "{}").seq, 3L, "command() returns the pending commit");
            Receipt got = client.waitForReveal("g-beacon", "token", answer.commit, 10_000);
            T.check(got != null && got.seq == 4 && got.commandType.equals("RevealBeacon"), "waitForReveal returns the reveal after empty polls");
            T.check(server.requests.stream().anyMatch(q -> q.contains("/events?after=3&limit=1&wait=")), "it holds the request on the server (wait=): " + server.requests);
            server.eventPolls.set(0);
            server.emptyPolls = 1_000;
            long before = System.currentTimeMillis();
            T.equal(client.waitForReveal("g-beacon", "token", answer.commit, 1_500), null, "no reveal within the bound: null");
            T.check(System.currentTimeMillis() - before < 8_000, "... and the wait is bounded");
            server.emptyPolls = 0;

            // A reveal that is not the pending commit's: refused.
            Receipt otherReveal = reveal.with(Map.of("command", Json.parse("{\"type\":\"RevealBeacon\",\"payload\":{\"pending\":3,\"round\":" + (round + 1) + ",\"signature\":\"" + "ab".repeat(48) + "\"}}")));
            server.revealPage = "{\"gameId\":\"g-beacon\",\"version\":4,\"commits\":[" + Canonical.write(otherReveal.record) + "]}";
            T.throwsLike(ArbiterClient.ArbiterException.class, "not its reveal", "a next commit that is not the reveal", () -> client.waitForReveal("g-beacon", "token", answer.commit, 5_000));
            server.revealPage = "{\"gameId\":\"g-beacon\",\"version\":4,\"commits\":[" + Canonical.write(reveal.record) + "]}";

            // A retried commandId once revealed: 200 with the pair.
            server.commandStatus = 200;
            server.commandBody = "{\"version\":4,\"commit\":" + Canonical.write(pendingRecord) + ",\"reveal\":" + Canonical.write(reveal.record) + "}";
            ArbiterClient.CommandAnswer pair = client.submit("g-beacon", "token", ArbiterClient.newCommandId(), "Roll", "{}", null);
            T.check(pair.status == 200 && !pair.pending() && pair.reveal != null && pair.reveal.seq == 4 && pair.commit.seq == 3, "200 with the pair: the pending commit and its reveal");
            server.commandBody = "{\"version\":4,\"commit\":" + Canonical.write(pendingRecord) + ",\"reveal\":" + Canonical.write(otherReveal.record) + "}";
            T.throwsLike(ArbiterClient.ArbiterException.class, "not the reveal of its commit", "200 with a reveal of another round: refused",
                    () -> client.submit("g-beacon", "token", ArbiterClient.newCommandId(), "Roll", "{}", null));

            // 409 beacon_pending: retried after Retry-After, bounded.
            server.commandBody = "{\"version\":4,\"commit\":" + Canonical.write(pendingRecord) + ",\"reveal\":" + Canonical.write(reveal.record) + "}";
            server.busy409 = 1;
            ArbiterClient patient = new ArbiterClient(server.url()).timeouts(2_000, 5_000).retries(2, 5, 50).beaconPendingWait(5);
            T.equal(patient.submit("g-beacon", "token", "c-1", "Roll", "{}", null).status, 200, "after one 409 beacon_pending, the same request succeeds");
            T.equal(patient.lastBeaconPendingWaits(), 1, "... having waited once");
            server.busy409 = 100;
            ArbiterClient impatient = new ArbiterClient(server.url()).timeouts(2_000, 5_000).retries(2, 5, 50).beaconPendingWait(2);
            T.throwsLike(ArbiterClient.ArbiterException.class, "waits for its beacon", "409 beacon_pending for longer than the bound: the 409 is the answer",
                    () -> impatient.submit("g-beacon", "token", "c-2", "Roll", "{}", null));
            T.equal(impatient.lastBeaconPendingWaits(), 2, "... after two waits of 1 s (the bound: 2 s)");
            server.busy409 = 0;

            // RollSession: the pending line and the sender's check, then the reveal's line. quicknet's
            // round of this game was published in 2023: the sender's check warns.
            server.commandStatus = 202;
            server.commandBody = "{\"version\":3,\"commit\":" + Canonical.write(pendingRecord) + ",\"beacon\":{\"chain\":\"quicknet\",\"round\":" + round + ",\"roundAt\":" + Canonical.write(data.get("roundAt")) + "}}";
            server.eventPolls.set(0);
            server.emptyPolls = 1;
            RollSession seat = new RollSession(client, "g-beacon", "token").revealWait(10_000);
            seat.noteKidsInLog(map(map(games.get("game")).get("keys")));
            RollSession.Outcome sent = seat.send("Roll", "{\"dice\":\"3d6\",\"purpose\":\"assault on Carentan\"}", "Roll 3d6");
            T.check(sent.ok() && sent.awaitingReveal && sent.logLines.size() == 1 && LogLine.decode(sent.logLines.get(0)).seq == 3, "send: the pending commit's line, awaiting its reveal");
            T.check(sent.chatLines.size() == 1 && sent.chatLines.get(0).startsWith("⚠ round " + round + " was already published"), "the sender's check warns of a round published long ago: " + sent.chatLines);
            RollSession.Outcome revealed = seat.awaitReveal();
            T.check(!revealed.awaitingReveal && revealed.logLines.size() == 1 && LogLine.decode(revealed.logLines.get(0)).seq == 4, "awaitReveal: the reveal's line");
            T.equal(seat.pendingCommandId(), null, "nothing pending after the reveal");

            // A round still in the future (the same commit with a round a minute ahead: the client checks no signature).
            long future = BeaconChain.QUICKNET.pendingRoundFor(System.currentTimeMillis() + 60_000);
            Map<String, Object> futureData = new LinkedHashMap<>();
            futureData.put("round", Json.JsonNumber.of(future));
            futureData.put("roundAt", BeaconChain.QUICKNET.roundAt(future));
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("type", "BeaconRollPending");
            event.put("data", futureData);
            Receipt ahead = pending.with(Map.of("events", List.of(event)));
            server.commandBody = "{\"version\":3,\"commit\":" + Canonical.write(ahead.record) + ",\"beacon\":{\"chain\":\"quicknet\",\"round\":" + future + ",\"roundAt\":\"" + futureData.get("roundAt") + "\"}}";
            server.emptyPolls = 1_000;
            server.eventPolls.set(0);
            RollSession seat2 = new RollSession(client, "g-beacon", "token").revealWait(1_000);
            seat2.noteKidsInLog(map(map(games.get("game")).get("keys")));
            RollSession.Outcome soon = seat2.send("Roll", "{\"dice\":\"3d6\",\"purpose\":\"p\"}", "Roll 3d6");
            T.equal(soon.chatLines, List.of("round " + future + " was still in the future when the server accepted ✓"), "the ✓ line for a round still ahead");
            RollSession.Outcome late = seat2.awaitReveal();
            T.check(late.awaitingReveal && late.logLines.isEmpty() && late.chatLines.get(0).contains("still waits for its beacon"), "no reveal in time: said in chat, still pending: " + late.chatLines);
            T.check(seat2.pendingCommandId() != null, "the roll stays pending");
            // The next roll asks for the pending one first (its commandId again): now 200 with the pair.
            server.commandStatus = 200;
            Receipt aheadReveal = reveal.with(Map.of("command", Json.parse("{\"type\":\"RevealBeacon\",\"payload\":{\"pending\":3,\"round\":" + future + ",\"signature\":\"" + "ab".repeat(48) + "\"}}")));
            server.commandBody = "{\"version\":4,\"commit\":" + Canonical.write(ahead.record) + ",\"reveal\":" + Canonical.write(aheadReveal.record) + "}";
            int before409 = server.requests.size();
            RollSession.Outcome next = seat2.send("Roll", "{\"dice\":\"1d6\",\"purpose\":\"q\"}", "Roll 1d6");
            T.check(next.logLines.size() >= 1 && LogLine.decode(next.logLines.get(0)).seq == 4, "the late reveal reaches the log first, without the pending line again: " + next.logLines.size());
            T.check(server.requests.subList(before409, server.requests.size()).stream().filter(q -> q.endsWith("/commands")).count() == 2, "then the new roll is sent");
            T.check(next.chatLines.isEmpty(), "no second sender's check for the same roll");
        }
    }
}
