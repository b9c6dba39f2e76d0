package org.arbiter.kit.test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.arbiter.kit.ArbiterClient;
import org.arbiter.kit.BeaconChain;
import org.arbiter.kit.BeaconVerifier;
import org.arbiter.kit.CommandTemplate;
import org.arbiter.kit.LogLine;
import org.arbiter.kit.ModuleLog;
import org.arbiter.kit.Receipt;
import org.arbiter.kit.RollSession;
import org.arbiter.kit.SenderCheck;
import org.arbiter.kit.TrustedKeys;

/**
 * A France 1944 beacon game over HTTP (docs/beacon.md): created with {@code randomness: { beacon }},
 * a combat whose rolls each answer 202 and are revealed by the server once their round is
 * published (by a loopback relay serving a test chain), 409 beacon_pending while one waits, a
 * retried commandId answered with the pair, the sender's check, sealed, exported and verified by
 * the kit with the chain pinned by its hash. run.mjs starts the relay and a server offering its
 * chain (see docs/vassal.md).
 * Usage: BeaconLiveTests http://127.0.0.1:PORT ed25519:FINGERPRINT CHAIN_NAME CHAIN_HASH
 */
public final class BeaconLiveTests {
    public static void main(String[] args) {
        String url = args[0], pinned = args[1], chainName = args[2], chainHash = args[3];
        T.section("a France 1944 beacon game: pending, reveal, seal, export, verified by the kit", () -> france44(url, pinned, chainName, chainHash));
        T.section("a dice beacon game: two rolls through a seat, sealed, exported, verified by the kit", () -> dice(url, pinned, chainName, chainHash));
        System.exit(T.finish());
    }

    static void dice(String url, String pinned, String chainName, String chainHash) throws Exception {
        ArbiterClient client = new ArbiterClient(url).timeouts(2_000, 25_000).retries(3, 5, 100).beaconPendingWait(30);
        Map<String, Object> game = client.createGame("dice", null, chainName);
        String gameId = (String) game.get("gameId");
        String p1 = LiveTests.gameToken(game, "player1"), p2 = LiveTests.gameToken(game, "player2"), org = LiveTests.gameToken(game, "organizer");
        client.command(gameId, p2, ArbiterClient.newCommandId(), "ContributeEntropy", "{\"entropy\":\"from the Java kit\"}");
        int dice = 0;
        for (String[] roll : new String[][] { { p1, "{\"dice\":\"3d6\",\"purpose\":\"assault\"}" }, { p2, "{\"dice\":\"1d20\",\"purpose\":\"morale\"}" } }) {
            RollSession seat = new RollSession(client, gameId, roll[0]).revealWait(30_000);
            seat.history(0);
            RollSession.Outcome sent = seat.send("Roll", roll[1], "roll");
            T.check(sent.ok() && sent.awaitingReveal, "a roll: accepted, waiting for its beacon");
            T.check(sent.chatLines.size() == 1 && sent.chatLines.get(0).endsWith("was still in the future when the server accepted ✓"), "the sender's line: " + sent.chatLines);
            RollSession.Outcome revealed = seat.awaitReveal();
            Receipt reveal = LogLine.decode(revealed.logLines.get(0));
            T.check("server".equals(reveal.actor) && "DiceRolled".equals(reveal.events().get(0).get("type")), "the reveal rolls the dice: " + revealed.logLines);
            dice += reveal.dice.size();
        }
        T.equal(dice, 4, "3d6 and 1d20 revealed");
        client.command(gameId, org, ArbiterClient.newCommandId(), "Seal", "{}");
        Map<String, Object> export = client.export(gameId, org);
        TrustedKeys keys = new TrustedKeys(List.of(pinned));
        keys.learnExport(export);
        BeaconVerifier.Result result = BeaconVerifier.verifyExport(export, keys, List.of(chainHash));
        System.out.println("   " + result.summary());
        T.check(result.ok() && result.revealed == 2 && result.diceChecked == 4 && result.sealed, "the export verifies with the chain pinned, its four dice from the seed and the beacons: " + result.problems);
    }

    static void france44(String url, String pinned, String chainName, String chainHash) throws Exception {
        ArbiterClient client = new ArbiterClient(url).timeouts(2_000, 25_000).retries(3, 5, 100).beaconPendingWait(30);
        ArbiterClient hasty = new ArbiterClient(url).timeouts(2_000, 25_000).retries(1, 5, 100).beaconPendingWait(0);
        Map<String, Object> game = client.createGame("france44", null, chainName);
        String gameId = (String) game.get("gameId");
        String allied = LiveTests.gameToken(game, "allied"), german = LiveTests.gameToken(game, "german"), org = LiveTests.gameToken(game, "organizer");
        ModuleLog log = new ModuleLog(new TrustedKeys(List.of(pinned)).learnAll(client.keys()));
        RollSession seat = new RollSession(client, gameId, allied).revealWait(30_000);
        List<String> lines = new ArrayList<>(seat.history(0));
        T.check(seat.chain() != null && chainHash.equals(seat.chain().chainHash), "#1 names the chain the game was created with");
        client.command(gameId, org, ArbiterClient.newCommandId(), "StartTurn", "{\"turn\":1,\"reactionPoints\":{\"allied\":10,\"german\":6}}");
        client.command(gameId, german, ArbiterClient.newCommandId(), "ActivateHQ", "{\"hqId\":\"7\"}");
        client.command(gameId, allied, ArbiterClient.newCommandId(), "ActivateHQ", "{\"hqId\":\"1US\"}");
        client.command(gameId, german, ArbiterClient.newCommandId(), "BeginReactionSegment", "{}");
        client.command(gameId, german, ArbiterClient.newCommandId(), "EndReactionSegment", "{}");
        client.command(gameId, allied, ArbiterClient.newCommandId(), "BeginAttackIncrement", "{}");
        String c1 = "{\"combatId\":\"c1\",\"kind\":\"set-piece\",\"attackers\":[" + LiveTests.unit("1Inf", "2708", 4) + "," + LiveTests.unit("29Inf", "2709", 3) + "," + LiveTests.unit("2Arm", "2709", 3)
                + "],\"defenders\":[" + LiveTests.unit("352", "2809", 7) + "],\"attackerMorale\":4,\"defenderMorale\":3,\"terrainMoraleModifiers\":[1]}";
        ArbiterClient.CommandAnswer declared = client.submit(gameId, allied, ArbiterClient.newCommandId(), "DeclareCombat", c1, null);
        T.equal(declared.status, 201, "a command that draws no die is committed at once (201)");
        lines.addAll(seat.history(1));

        String airId = ArbiterClient.newCommandId();
        ArbiterClient.CommandAnswer air = client.submit(gameId, allied, airId, "RollAirPower", "{\"combatId\":\"c1\",\"availability\":4}", null);
        T.check(air.status == 202 && air.pending() && air.commit.dice.isEmpty(), "a roll: 202, the pending commit, no dice");
        T.check(air.round > 0 && chainName.equals(air.chain), "it names a round of the chain");
        BeaconChain chain = seat.chain();
        T.equal(air.round, chain.pendingRoundFor(BeaconChain.parseIso(air.commit.recordedAt)), "the first round at least one period after it was recorded");
        T.check(SenderCheck.of(chain, air.round, air.roundAt, air.receivedAtMs).inFuture, "the sender's check: the round was still in the future");
        try {
            hasty.command(gameId, allied, ArbiterClient.newCommandId(), "ResolveCombat", "{\"combatId\":\"c1\"}");
            T.check(false, "another command while a roll waits: refused");
        } catch (ArbiterClient.ArbiterException e) {
            T.check(e.status == 409 && "beacon_pending".equals(e.code), "409 beacon_pending while a roll waits, got " + e.status + " " + e.code);
        }
        Receipt airReveal = client.waitForReveal(gameId, allied, air.commit, 30_000);
        T.check(airReveal != null && airReveal.dice.size() == 1 && "server".equals(airReveal.actor), "the reveal: the server's commit, one die");
        ArbiterClient.CommandAnswer retried = client.submit(gameId, allied, airId, "RollAirPower", "{\"combatId\":\"c1\",\"availability\":4}", null);
        T.check(retried.status == 200 && retried.reveal != null && retried.reveal.hash.equals(airReveal.hash) && retried.commit.hash.equals(air.commit.hash), "the retried commandId: 200 with the pair");

        // The combat through a seat, from a command template, as ArbiterCommandButton sends it (202, then the reveal).
        lines.addAll(seat.history(air.commit.seq - 1));
        CommandTemplate.Filled command = CommandTemplate.parse("{\"type\":\"ResolveCombat\",\"payload\":{\"combatId\":\"$CombatId$\"}}").fill(Map.of("CombatId", "c1")::get);
        RollSession.Outcome resolve = seat.send(command.type, command.payloadJson, "ResolveCombat c1");
        T.check(resolve.ok() && resolve.awaitingReveal, "ResolveCombat: accepted, waiting for its beacon");
        T.check(resolve.chatLines.size() == 1 && resolve.chatLines.get(0).endsWith("was still in the future when the server accepted ✓"), "the sender's line: " + resolve.chatLines);
        RollSession.Outcome revealed = seat.awaitReveal();
        T.check(!revealed.awaitingReveal && revealed.logLines.size() == 1, "the reveal's line");
        lines.addAll(resolve.logLines);
        lines.addAll(revealed.logLines);
        for (String line : lines) {
            String chat = log.read(line);
            System.out.println("   " + chat);
            T.check(chat.startsWith("✓"), "log line checks: " + chat);
        }
        Receipt combat = LogLine.decode(revealed.logLines.get(0));
        T.check(combat.dice.size() == 1 && combat.dice.get(0)[0] == 6 && "CombatResolved".equals(combat.events().get(0).get("type")), "the reveal resolves the combat with one d6");

        client.command(gameId, org, ArbiterClient.newCommandId(), "Seal", "{}");
        Map<String, Object> export = client.export(gameId, org);
        TrustedKeys keys = new TrustedKeys(List.of(pinned));
        keys.learnExport(export);
        BeaconVerifier.Result unpinned = BeaconVerifier.verifyExport(export, keys, List.of());
        T.check("quicknet".equals(chainName) ? unpinned.ok() : !unpinned.ok(), "a test chain is refused unless pinned: " + unpinned.problems);
        BeaconVerifier.Result result = BeaconVerifier.verifyExport(export, keys, List.of(chainHash));
        System.out.println("   " + result.summary());
        T.check(result.ok(), "the export verifies with the chain pinned: " + result.problems);
        T.check(result.revealed == 2 && result.diceChecked == 2 && result.sealed, "two rolls revealed, two dice from the seed and the beacons");
    }
}
