package org.arbiter.kit.test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.arbiter.kit.ArbiterClient;
import org.arbiter.kit.Canonical;
import org.arbiter.kit.CommandTemplate;
import org.arbiter.kit.Crypto;
import org.arbiter.kit.Json;
import org.arbiter.kit.LogLine;
import org.arbiter.kit.ModuleLog;
import org.arbiter.kit.PlayerLink;
import org.arbiter.kit.Receipt;
import org.arbiter.kit.RollSession;
import org.arbiter.kit.TextLine;
import org.arbiter.kit.TrustedKeys;
import org.arbiter.kit.Verifier;

/**
 * The kit against the local server: a dice game and a France 1944 combat played through
 * ArbiterClient, every receipt checked against the pinned key by the roller and, through the
 * log line, by the opponent; forged, changed, discarded (gap) and forked receipts; a command
 * retried after a timeout and after a 503; the server down.
 * Usage: LiveTests http://127.0.0.1:PORT ed25519:FINGERPRINT
 */
public final class LiveTests {
    static String url;
    static String pinned;
    static ArbiterClient client;
    static Map<String, Object> keysDoc;

    /** One module's game log: lines written by the roller, read back by the opponent's client. */
    static final class GameLog {
        final Verifier roller;
        final Verifier opponent;
        final List<String> lines = new ArrayList<>();
        final List<Receipt> shown = new ArrayList<>();

        GameLog() {
            roller = new Verifier(new TrustedKeys(List.of(pinned)).learnAll(keysDoc));
            opponent = new Verifier(new TrustedKeys(List.of(pinned)).learnAll(keysDoc));
        }

        /** The roller checks the receipt and writes its line; the opponent decodes and checks it. */
        Verifier.Check show(Receipt r, String label) throws Exception {
            Verifier.Check mine = roller.check(r);
            T.equal(mine.status, Verifier.Status.OK, label + ": the roller's check " + mine.problems);
            String line = LogLine.encode(r);
            lines.add(line);
            shown.add(r);
            Verifier.Check theirs = LogLine.check(line, opponent);
            T.equal(theirs.status, Verifier.Status.OK, label + ": the opponent's check of the log line " + theirs.problems);
            T.equal(theirs.signerFingerprint, pinned, label + ": signed by the pinned key");
            String chat = LogLine.chatLine(theirs);
            T.check(chat.startsWith("✓ #" + r.seq + " " + r.actor + " " + r.commandType) && chat.endsWith("[" + LogLine.shortFingerprint(pinned) + "]") && safe(chat), label + ": chat line " + chat);
            System.out.println("   " + chat);
            return theirs;
        }
    }

    public static void main(String[] args) {
        url = args[0];
        pinned = args[1];
        client = new ArbiterClient(url).timeouts(2_000, 10_000).retries(3, 5, 100);
        T.section("GET /keys: the served fingerprint is the one computed from x", LiveTests::keys);
        T.section("a dice game through ArbiterClient, checked by both players", LiveTests::diceGame);
        T.section("a France 1944 combat through ArbiterClient", LiveTests::france44);
        T.section("the player's link and a command template: a France 1944 combat as ArbiterCommandButton sends it", LiveTests::templateThroughLink);
        T.section("a command retried after a read timeout gets the same dice", LiveTests::timeoutRetry);
        T.section("RollSession: a roll without an answer is fetched again before the next one, and reaches the log", LiveTests::rollSession);
        T.section("503 with Retry-After: waited for, bounded", LiveTests::unavailableRetry);
        T.section("the server down: no roll, and the chat says so", LiveTests::serverDown);
        System.exit(T.finish());
    }

    static void keys() throws Exception {
        keysDoc = client.keys();
        List<?> keys = (List<?>) keysDoc.get("keys");
        T.check(!keys.isEmpty(), "GET /keys lists a key");
        boolean found = false;
        for (Object k : keys) {
            Map<?, ?> jwk = (Map<?, ?>) k;
            String computed = Crypto.fingerprintOf((String) jwk.get("x"));
            T.equal(computed, jwk.get("fingerprint"), "fingerprint of kid " + jwk.get("kid"));
            found |= computed.equals(pinned);
        }
        T.check(found, "the pinned fingerprint is among the server's keys");
    }

    static String gameToken(Map<String, Object> game, String role) {
        Map<?, ?> tokens = (Map<?, ?>) game.get("tokens");
        return role.equals("organizer") ? (String) tokens.get("organizer") : (String) ((Map<?, ?>) tokens.get("players")).get(role);
    }

    static void diceGame() throws Exception {
        Map<String, Object> game = client.createGame("dice", null);
        String gameId = (String) game.get("gameId");
        String p1 = gameToken(game, "player1"), p2 = gameToken(game, "player2"), org = gameToken(game, "organizer");
        GameLog log = new GameLog();
        List<Receipt> created = client.events(gameId, p1, 0, 1);
        T.equal(created.size(), 1, "the timeline starts with one commit");
        T.equal(created.get(0).commandType, "CreateGame", "commit #1 is CreateGame");
        log.show(created.get(0), "#1 CreateGame");
        log.show(client.command(gameId, p1, ArbiterClient.newCommandId(), "ContributeEntropy", "{\"entropy\":\"my lucky socks\"}"), "entropy p1");
        log.show(client.command(gameId, p2, ArbiterClient.newCommandId(), "ContributeEntropy", "{\"entropy\":\"4417 2209\"}"), "entropy p2");

        String rollId = ArbiterClient.newCommandId();
        Receipt roll = client.command(gameId, p1, rollId, "Roll", "{\"dice\":\"3d6+1\",\"purpose\":\"bombardment of 2708 \\\"Le Mans\\\" \\\\ é 😀\"}");
        T.equal(client.lastAttempts(), 1, "one attempt when the server answers");
        Verifier.Check rollCheck = log.show(roll, "3d6+1");
        T.equal(roll.dice.size(), 3, "three dice");
        int sum = 1;
        for (int[] d : roll.dice) {
            T.check(d[0] == 6 && d[1] >= 1 && d[1] <= 6, "a d6 shows 1..6");
            sum += d[1];
        }
        T.equal(roll.events().get(0).get("data") instanceof Map ? ((Map<?, ?>) roll.events().get(0).get("data")).get("total") : null, Json.JsonNumber.of(sum), "total = dice + 1");
        T.check(LogLine.chatLine(rollCheck).contains("\"bombardment of 2708 \\\\\"Le Mans\\\\\" \\\\\\\\ é 😀\" 3d6+1, dice " + roll.dieFaces() + " = " + sum), "the chat line shows purpose, dice and total: " + LogLine.chatLine(rollCheck));
        String text = client.commandText(gameId, p1, rollId, "Roll", "{\"dice\":\"3d6+1\",\"purpose\":\"bombardment of 2708 \\\"Le Mans\\\" \\\\ é 😀\"}");
        T.check(text.startsWith("#" + roll.seq + " player1 Roll ") && text.endsWith(" [" + roll.hash.substring(0, 8) + "]\n"), "Accept: text/plain gives the server's line for the same commit: " + text);
        Receipt again = client.command(gameId, p1, rollId, "Roll", "{\"dice\":\"3d6+1\",\"purpose\":\"bombardment of 2708 \\\"Le Mans\\\" \\\\ é 😀\"}");
        T.equal(again.hash, roll.hash, "sending the same commandId again returns the same commit");
        try {
            client.commandText(gameId, p1, ArbiterClient.newCommandId(), "Seal", "{}");
            T.check(false, "a side's Seal is refused");
        } catch (ArbiterClient.ArbiterException e) {
            T.check(e.status == 403 && e.code.equals("forbidden") && e.getMessage().equals("The player1 side may not send Seal."), "a refusal asked as text/plain is one line, read into status, code and message: " + e.status + " " + e.code + " " + e.getMessage());
        }
        try {
            client.command(gameId, p1, rollId, "Roll", "{\"dice\":\"3d6+2\",\"purpose\":\"other\"}");
            T.check(false, "a reused commandId with another payload is refused");
        } catch (ArbiterClient.ArbiterException e) {
            T.check(e.status == 409 && e.code.equals("command_id_reused"), "reused commandId: 409 command_id_reused, got " + e.status + " " + e.code);
        }
        try {
            client.command(gameId, p1, ArbiterClient.newCommandId(), "Roll", "{\"dice\":\"d6\",\"purpose\":\"two\\nlines\"}");
            T.check(false, "a purpose with a line feed is refused");
        } catch (ArbiterClient.ArbiterException e) {
            T.equal(e.status, 400, "a purpose with a line feed: 400 (" + e.code + ")");
        }
        try {
            client.command(gameId, p1, ArbiterClient.newCommandId(), "ContributeEntropy", "{\"entropy\":\"late\"}");
            T.check(false, "entropy after the first die is refused");
        } catch (ArbiterClient.ArbiterException e) {
            T.check(e.status == 422 && e.code.equals("entropy_locked"), "late entropy: 422 entropy_locked, got " + e.status + " " + e.code);
        }

        Receipt d20 = client.command(gameId, p2, ArbiterClient.newCommandId(), "Roll", "{\"dice\":[{\"count\":2,\"sides\":20}],\"purpose\":\"morale\"}");
        log.show(d20, "2d20");

        // A roll made and discarded: player2 rolls, does not like it, does not post it, rolls again.
        Receipt discarded = client.command(gameId, p2, ArbiterClient.newCommandId(), "Roll", "{\"dice\":\"d6\",\"purpose\":\"assault\"}");
        T.equal(log.roller.check(discarded).status, Verifier.Status.OK, "the discarded roll is genuine");
        Receipt reroll = client.command(gameId, p2, ArbiterClient.newCommandId(), "Roll", "{\"dice\":\"d6\",\"purpose\":\"assault\"}");
        Verifier.Check gap = LogLine.check(LogLine.encode(reroll), log.opponent);
        T.equal(gap.status, Verifier.Status.GAP, "the opponent sees a GAP at the re-roll");
        T.check(gap.problems.toString().contains("#" + discarded.seq + " never appeared"), "naming the discarded seq: " + gap.problems);
        String gapLine = LogLine.chatLine(gap);
        T.check(gapLine.startsWith("⚠ ARBITER GAP ⚠ #" + reroll.seq) && safe(gapLine), "gap chat line: " + gapLine);
        System.out.println("   " + gapLine);
        List<Receipt> missing = client.events(gameId, p1, discarded.seq - 1, 1);
        T.check(missing.size() == 1 && missing.get(0).hash.equals(discarded.hash), "the timeline after seq " + (discarded.seq - 1) + " shows the discarded roll");

        // A changed die, and a forgery re-signed with another key under the server's kid.
        Receipt changed = roll.with(Map.of("dice", Json.parse("[{\"sides\":6,\"value\":" + (roll.dice.get(0)[1] % 6 + 1) + "},{\"sides\":6,\"value\":6},{\"sides\":6,\"value\":6}]")));
        Verifier fresh = new Verifier(new TrustedKeys(List.of(pinned)).learnAll(keysDoc));
        Verifier.Check changedCheck = LogLine.check(LogLine.encode(changed), fresh);
        T.equal(changedCheck.status, Verifier.Status.INVALID, "a changed die is INVALID");
        T.check(changedCheck.problems.get(0).startsWith("hash mismatch"), "... hash mismatch: " + changedCheck.problems);
        KeyPair forger = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        Receipt forged = resign(changed, forger, roll.kid);
        Verifier.Check forgedCheck = LogLine.check(LogLine.encode(forged), fresh);
        T.equal(forgedCheck.status, Verifier.Status.INVALID, "a receipt re-signed with another key is INVALID");
        T.check(forgedCheck.problems.toString().contains("signature does not verify"), "... the signature: " + forgedCheck.problems);
        String forgedLine = LogLine.chatLine(forgedCheck);
        T.check(forgedLine.startsWith("✗✗ ARBITER CHECK FAILED ✗✗ #" + roll.seq) && forgedLine.contains("do not accept") && safe(forgedLine), "forged chat line: " + forgedLine);
        System.out.println("   " + forgedLine);
        // Even when the forger's key is published next to the server's (a doctored /keys or export), it is not pinned.
        Map<String, Object> doctored = Json.parseObject("{\"keys\":[{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"kid\":\"forger\",\"x\":\"" + Crypto.xOf(forger.getPublic()) + "\"}]}");
        Verifier fooled = new Verifier(new TrustedKeys(List.of(pinned)).learnAll(keysDoc).learnAll(doctored));
        Verifier.Check unpinned = fooled.check(resign(changed, forger, "forger"));
        T.equal(unpinned.status, Verifier.Status.INVALID, "a receipt signed by a published but unpinned key is INVALID");
        T.check(unpinned.problems.toString().contains("does not pin"), "... not pinned: " + unpinned.problems);

        // A fork: another commit for a seq already shown, signed by a key the module pins (a second, compromised or confused server).
        KeyPair second = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        String secondFp = Crypto.fingerprintOf(Crypto.xOf(second.getPublic()));
        Verifier twoKeys = new Verifier(new TrustedKeys(List.of(pinned, secondFp)).learnAll(keysDoc).learn("second", Crypto.xOf(second.getPublic())));
        for (Receipt r : log.shown) T.equal(twoKeys.check(r).status, Verifier.Status.OK, "replaying #" + r.seq + " with two pinned keys");
        Receipt otherRoll = resign(changed, second, "second");
        Verifier.Check fork = LogLine.check(LogLine.encode(otherRoll), twoKeys);
        T.equal(fork.status, Verifier.Status.FORK, "another #" + roll.seq + " signed by a pinned key is a FORK");
        T.check(LogLine.chatLine(fork).startsWith("✗✗ ARBITER FORK ✗✗ #" + roll.seq), "fork chat line: " + LogLine.chatLine(fork));

        // The whole timeline, read again and checked in order by a module that saw nothing yet.
        Receipt sealed = client.command(gameId, org, ArbiterClient.newCommandId(), "Seal", "{}");
        T.equal(sealed.events().get(0).get("type"), "GameSealed", "sealed");
        List<Receipt> all = client.events(gameId, p2, 0, 1000);
        T.equal((long) all.size(), sealed.seq, "the timeline holds every commit");
        Verifier replay = new Verifier(new TrustedKeys(List.of(pinned)).learnAll(keysDoc));
        int ok = 0;
        for (Receipt r : all) if (replay.check(r).ok()) ok++;
        T.equal(ok, all.size(), "every commit of the timeline checks in order");
        List<Receipt> after = client.events(gameId, p2, roll.seq, 1000);
        T.check(!after.isEmpty() && after.get(0).seq == roll.seq + 1 && after.get(after.size() - 1).seq == sealed.seq, "events after seq " + roll.seq + " start at " + (roll.seq + 1));
        try {
            client.command(gameId, p1, ArbiterClient.newCommandId(), "Roll", "{\"dice\":\"d6\",\"purpose\":\"p\"}");
            T.check(false, "a roll after the seal is refused");
        } catch (ArbiterClient.ArbiterException e) {
            T.check(e.status == 409 && e.code.equals("game_sealed"), "after the seal: 409 game_sealed, got " + e.status + " " + e.code);
        }
        // The dice follow from the revealed seed (fairness-v1 §4), for every commit of the game.
        String seed = (String) ((Map<?, ?>) sealed.events().get(0).get("data")).get("serverSeed");
        StringBuilder entropy = new StringBuilder("[");
        for (Receipt r : all) {
            if (!r.commandType.equals("ContributeEntropy")) continue;
            Map<?, ?> data = (Map<?, ?>) r.events().get(0).get("data");
            entropy.append(entropy.length() > 1 ? "," : "").append("[").append(Canonical.write(data.get("by"))).append(",").append(Canonical.write(data.get("entropy"))).append("]");
        }
        String message = Canonical.write(Json.parse("{\"gameId\":" + Canonical.write(gameId) + ",\"entropy\":" + entropy + "]}"));
        byte[] gameKey = Crypto.hmacSha256(Crypto.hexBytes(seed), message.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        int diceChecked = 0, diceSame = 0;
        for (Receipt r : all) {
            List<Long> expected = new ArrayList<>();
            for (int[] d : r.dice) expected.add((long) d[1]);
            List<Long> drawn = draw(gameKey, r.seq, r.dice);
            diceChecked += r.dice.size();
            if (drawn.equals(expected)) diceSame += r.dice.size();
        }
        T.check(diceChecked >= 7, "dice to check after the seal (" + diceChecked + ")");
        T.equal(diceSame, diceChecked, "every die follows from the revealed seed");
    }

    static List<Long> draw(byte[] gameKey, long seq, List<int[]> dice) {
        List<Long> out = new ArrayList<>();
        int block = 0, at = 32;
        byte[] words = null;
        for (int[] die : dice) {
            long sides = die[0];
            long limit = (1L << 32) - ((1L << 32) % sides);
            for (;;) {
                if (at == 32) {
                    words = Crypto.hmacSha256(gameKey, (seq + ":" + block++).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    at = 0;
                }
                long w = ((words[at] & 0xffL) << 24) | ((words[at + 1] & 0xffL) << 16) | ((words[at + 2] & 0xffL) << 8) | (words[at + 3] & 0xffL);
                at += 4;
                if (w < limit) {
                    out.add(w % sides + 1);
                    break;
                }
            }
        }
        return out;
    }

    static Receipt resign(Receipt r, KeyPair key, String kid) throws Exception {
        Receipt kidded = r.with(Map.of("kid", kid));
        String hash = kidded.computeHash();
        Signature s = Signature.getInstance("Ed25519");
        s.initSign(key.getPrivate());
        s.update(Crypto.hexBytes(hash));
        return kidded.with(Map.of("hash", hash, "signature", Base64.getEncoder().encodeToString(s.sign())));
    }

    static String unit(String id, String hex, int strength) {
        return "{\"unitId\":\"" + id + "\",\"hex\":\"" + hex + "\",\"strength\":" + strength + "}";
    }

    /** A France 1944 game up to the allied declaration of combat c1, every receipt shown in the returned log. */
    static GameLog declaredCombat(Map<String, Object> game) throws Exception {
        String gameId = (String) game.get("gameId");
        String allied = gameToken(game, "allied"), german = gameToken(game, "german"), org = gameToken(game, "organizer");
        GameLog log = new GameLog();
        log.show(client.events(gameId, allied, 0, 1).get(0), "#1 CreateGame");
        log.show(client.command(gameId, org, ArbiterClient.newCommandId(), "StartTurn", "{\"turn\":1,\"reactionPoints\":{\"allied\":10,\"german\":6}}"), "StartTurn");
        log.show(client.command(gameId, german, ArbiterClient.newCommandId(), "ActivateHQ", "{\"hqId\":\"7\"}"), "ActivateHQ german");
        log.show(client.command(gameId, allied, ArbiterClient.newCommandId(), "ActivateHQ", "{\"hqId\":\"1US\"}"), "ActivateHQ allied");
        log.show(client.command(gameId, german, ArbiterClient.newCommandId(), "BeginReactionSegment", "{}"), "BeginReactionSegment");
        log.show(client.command(gameId, german, ArbiterClient.newCommandId(), "EndReactionSegment", "{}"), "EndReactionSegment");
        log.show(client.command(gameId, allied, ArbiterClient.newCommandId(), "BeginAttackIncrement", "{}"), "BeginAttackIncrement");
        String c1 = "{\"combatId\":\"c1\",\"kind\":\"set-piece\",\"attackers\":[" + unit("1Inf", "2708", 4) + "," + unit("29Inf", "2709", 3) + "," + unit("2Arm", "2709", 3)
                + "],\"defenders\":[" + unit("352", "2809", 7) + "],\"attackerMorale\":4,\"defenderMorale\":3,\"terrainMoraleModifiers\":[1]}";
        log.show(client.command(gameId, allied, ArbiterClient.newCommandId(), "DeclareCombat", c1), "DeclareCombat c1");
        return log;
    }

    static void france44() throws Exception {
        Map<String, Object> game = client.createGame("france44", null);
        String gameId = (String) game.get("gameId");
        String allied = gameToken(game, "allied"), german = gameToken(game, "german");
        GameLog log = declaredCombat(game);
        try {
            client.command(gameId, german, ArbiterClient.newCommandId(), "RollAirPower", "{\"combatId\":\"c1\",\"availability\":4}");
            T.check(false, "the german side may not roll allied air power");
        } catch (ArbiterClient.ArbiterException e) {
            T.equal(e.status, 403, "RollAirPower by german: 403");
        }
        Receipt air = client.command(gameId, allied, ArbiterClient.newCommandId(), "RollAirPower", "{\"combatId\":\"c1\",\"availability\":4}");
        log.show(air, "RollAirPower c1");
        T.equal(air.dice.size(), 1, "air power rolls one die");
        String resolveId = ArbiterClient.newCommandId();
        Receipt resolve = client.command(gameId, allied, resolveId, "ResolveCombat", "{\"combatId\":\"c1\"}");
        Verifier.Check check = log.show(resolve, "ResolveCombat c1");
        T.equal(resolve.dice.size(), 1, "a combat rolls one d6");
        T.equal(resolve.dice.get(0)[0], 6, "... a d6");
        Map<?, ?> data = (Map<?, ?>) resolve.events().get(0).get("data");
        T.equal(data.get("die"), Json.JsonNumber.of(resolve.dice.get(0)[1]), "the event's die is the receipt's die");
        T.equal(data.get("odds"), "10:7", "odds 10:7");
        T.check(LogLine.chatLine(check).contains("ResolveCombat \"c1\" 10:7, column " + data.get("column") + ", die " + resolve.dice.get(0)[1] + " -> " + data.get("code")), "chat line names the combat and die: " + LogLine.chatLine(check));
        String text = client.commandText(gameId, allied, resolveId, "ResolveCombat", "{\"combatId\":\"c1\"}");
        T.check(Pattern.compile("^#" + resolve.seq + " allied ResolveCombat c1: 10:7 -> .*die " + resolve.dice.get(0)[1] + " -> [A-F] \\[" + resolve.hash.substring(0, 8) + "\\]\n$").matcher(text).matches(), "server chat line for the same commandId: " + text);
        try {
            client.command(gameId, allied, ArbiterClient.newCommandId(), "ResolveCombat", "{\"combatId\":\"c1\"}");
            T.check(false, "resolving c1 twice is refused");
        } catch (ArbiterClient.ArbiterException e) {
            T.check(e.status == 422 && e.code.equals("rule_violation"), "c1 twice: 422 rule_violation, got " + e.status + " " + e.code + " " + e.getMessage());
        }
        List<Receipt> all = client.events(gameId, german, 0, 1000);
        T.equal(all.get(all.size() - 1).hash, resolve.hash, "the timeline ends with the combat");
        T.equal(log.opponent.missing(gameId), List.of(), "the opponent's log has no gap");
    }

    static String percent(String s) {
        return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * What the adapter does on a press (ArbiterButton.seat, ArbiterCommandButton.pressed), without VASSAL: the
     * seat from the link the web app gives the allied player, the template filled from properties, the lines
     * read by a module log as every screen reads them. The token reaches no line, no chat, no saved state.
     */
    static void templateThroughLink() throws Exception {
        Map<String, Object> game = client.createGame("france44", null);
        String gameId = (String) game.get("gameId");
        String allied = gameToken(game, "allied");
        declaredCombat(game);
        PlayerLink link = PlayerLink.parse(url + "/#/games/" + percent(gameId) + "?token=" + percent(allied));
        T.equal(link.serverUrl + " " + link.gameId, url + " " + gameId, "the link gives the server and the game");
        RollSession seat = new RollSession(new ArbiterClient(link.serverUrl).timeouts(2_000, 10_000).retries(3, 5, 100), link.gameId, link.token());
        ModuleLog module = new ModuleLog(new TrustedKeys(List.of(pinned)));
        List<String> lines = new ArrayList<>();
        lines.add(seat.keysLine());
        lines.addAll(seat.history(0));
        Map<String, String> properties = Map.of("CombatId", "c1", "AirPowerAvailability", "4");
        int before = client.events(gameId, allied, 0, 1000).size();
        T.throwsLike(CommandTemplate.TemplateException.class, "no property named Combat", "an unknown property: an error before anything is sent",
                () -> CommandTemplate.parse("{\"type\":\"ResolveCombat\",\"payload\":{\"combatId\":\"$Combat$\"}}").fill(properties::get));
        T.equal(client.events(gameId, allied, 0, 1000).size(), before, "... and the server received nothing");
        CommandTemplate.Filled air = CommandTemplate.parse("{\"type\":\"RollAirPower\",\"payload\":{\"combatId\":\"$CombatId$\",\"availability\":$AirPowerAvailability$}}").fill(properties::get);
        RollSession.Outcome airOutcome = seat.send(air.type, air.payloadJson, "RollAirPower c1");
        T.check(airOutcome.ok(), "RollAirPower from a template: " + airOutcome.failureChatLine);
        CommandTemplate.Filled resolve = CommandTemplate.parse("{\"type\":\"ResolveCombat\",\"payload\":{\"combatId\":\"$CombatId$\"}}").fill(properties::get);
        RollSession.Outcome outcome = seat.send(resolve.type, resolve.payloadJson, "ResolveCombat c1");
        T.check(outcome.ok() && outcome.receipts.size() == 1, "ResolveCombat from a template: " + outcome.failureChatLine);
        lines.addAll(airOutcome.logLines);
        lines.addAll(outcome.logLines);
        List<String> chat = new ArrayList<>();
        for (String line : lines) chat.add(module.read(line));
        for (String c : chat) T.check(c.startsWith("✓") && safe(c), "every line checks on the reader's screen: " + c);
        String last = chat.get(chat.size() - 1);
        T.check(last.matches("✓ #" + outcome.receipts.get(0).seq + " allied ResolveCombat \"c1\" .*die [1-6] -> [A-F].*"), "the combat's result with its verified marker: " + last);
        System.out.println("   " + last);
        T.equal(module.verifier().missing(gameId), List.of(), "the log holds the chain from #1: no gap");
        List<String> everything = new ArrayList<>(lines);
        everything.addAll(chat);
        everything.add(module.stateLine());
        everything.add(link.toString());
        RollSession down = new RollSession(new ArbiterClient("http://127.0.0.1:" + unusedPort()).timeouts(300, 300).retries(1, 1, 10), link.gameId, link.token());
        RollSession.Outcome unreachable = down.send(resolve.type, resolve.payloadJson, "ResolveCombat c1");
        T.check(!unreachable.ok() && unreachable.failureChatLine.startsWith("✗ Arbiter server unreachable"), "the server down: " + unreachable.failureChatLine);
        everything.add(unreachable.failureChatLine);
        try {
            down.keysLine();
        } catch (ArbiterClient.ArbiterException e) {
            everything.add(String.valueOf(e.getMessage()));
        }
        try {
            new ArbiterClient(url).command(gameId, allied, ArbiterClient.newCommandId(), "ResolveCombat", "{\"combatId\":\"c9\"}");
        } catch (ArbiterClient.ArbiterException e) {
            everything.add(e.status + " " + e.code + " " + e.getMessage()); // a refusal's message
        }
        for (String text : everything) T.check(!text.contains(allied), "the token is in no log line, chat line, saved state or message: " + text.substring(0, Math.min(60, text.length())));
        T.check(everything.size() > lines.size() + 4, "checked " + everything.size() + " texts");
    }

    static int unusedPort() throws Exception {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return s.getLocalPort();
        }
    }

    static void timeoutRetry() throws Exception {
        Map<String, Object> game = client.createGame("dice", null);
        String gameId = (String) game.get("gameId");
        String p1 = gameToken(game, "player1");
        int port = URI.create(url).getPort();
        try (TestProxy proxy = new TestProxy(port, TestProxy.Mode.SWALLOW_FIRST, null)) {
            ArbiterClient slow = new ArbiterClient(proxy.url()).timeouts(2_000, 1_000).retries(3, 5, 100);
            String commandId = ArbiterClient.newCommandId();
            long t0 = System.nanoTime();
            Receipt r = slow.command(gameId, p1, commandId, "Roll", "{\"dice\":\"4d6\",\"purpose\":\"retried\"}");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            T.equal(slow.lastAttempts(), 2, "the first attempt timed out, the second answered");
            T.equal(proxy.upstreamStatuses, List.of(201, 200), "the server applied it once (201, swallowed) and answered the retry with the stored commit (200)");
            T.check(ms >= 1_000 && ms < 8_000, "bounded by the read timeout (" + ms + " ms)");
            Receipt direct = client.command(gameId, p1, commandId, "Roll", "{\"dice\":\"4d6\",\"purpose\":\"retried\"}");
            T.equal(direct.hash, r.hash, "the same commit");
            T.equal(direct.dieFaces(), r.dieFaces(), "the same dice");
            List<Receipt> all = client.events(gameId, p1, 0, 1000);
            int count = 0;
            for (Receipt c : all) if (c.commandId.equals(commandId)) count++;
            T.equal(count, 1, "one commit for the commandId in the timeline");
            T.equal(all.size(), 2, "no second roll: CreateGame and one Roll");
            T.equal(new Verifier(new TrustedKeys(List.of(pinned)).learnAll(keysDoc)).check(r).status == Verifier.Status.GAP, true, "the retried receipt is genuine (GAP only because #1 was not shown)");
        }
        try (TestProxy proxy = new TestProxy(port, TestProxy.Mode.SWALLOW_FIRST, null)) {
            ArbiterClient once = new ArbiterClient(proxy.url()).timeouts(2_000, 500).retries(1, 5, 100);
            try {
                once.command(gameId, p1, ArbiterClient.newCommandId(), "Roll", "{\"dice\":\"d6\",\"purpose\":\"p\"}");
                T.check(false, "one attempt only: the timeout is reported");
            } catch (ArbiterClient.Unavailable e) {
                T.check(e.getMessage().contains("SocketTimeoutException"), "one attempt only: Unavailable after the timeout: " + e.getMessage());
            }
        }
    }

    static void rollSession() throws Exception {
        Map<String, Object> game = client.createGame("dice", null);
        String gameId = (String) game.get("gameId");
        String p1 = gameToken(game, "player1");
        int port = URI.create(url).getPort();
        GameLog log = new GameLog();
        try (TestProxy proxy = new TestProxy(port, TestProxy.Mode.SWALLOW_FIRST, null)) {
            RollSession session = new RollSession(new ArbiterClient(proxy.url()).timeouts(2_000, 800).retries(1, 5, 50), gameId, p1);
            session.noteKidsInLog(keysDoc); // the module ships the server's keys: no keys line needed before the first receipt
            List<String> joined = new RollSession(client, gameId, p1).history(0); // the proxy swallows only its first request: keep it for the roll
            T.equal(joined.size(), 1, "joining posts the history: #1");
            for (String line : joined) log.show(LogLine.decode(line), "history");
            RollSession.Outcome lost = session.send("Roll", "{\"dice\":\"2d6\",\"purpose\":\"first, answer lost\"}", "Roll 2d6 first");
            T.check(!lost.ok() && lost.logLines.isEmpty(), "no answer: nothing to log");
            T.check(lost.failureChatLine != null && lost.failureChatLine.contains("no result for Roll 2d6 first") && safe(lost.failureChatLine), "and the chat says so: " + lost.failureChatLine);
            String pendingId = session.pendingCommandId();
            T.check(pendingId != null, "the roll stays pending with its commandId");
            T.equal(proxy.upstreamStatuses, List.of(201), "although the server made it");
            RollSession.Outcome next = session.send("Roll", "{\"dice\":\"d6\",\"purpose\":\"second\"}", "Roll d6 second");
            T.check(next.ok(), "the next send succeeds: " + next.failureChatLine);
            T.equal(next.logLines.size(), 2, "it posts the recovered roll first, then the new one");
            T.equal(next.receipts.get(0).commandId, pendingId, "the recovered roll has the pending commandId");
            T.equal(next.receipts.get(0).seq, 2L, "... and is #2, made once");
            T.equal(next.receipts.get(1).seq, 3L, "the new roll is #3");
            T.equal(proxy.upstreamStatuses, List.of(201, 200, 201), "the server answered the retry with the stored commit (200)");
            T.equal(session.pendingCommandId(), null, "nothing pending");
            for (String line : next.logLines) log.show(LogLine.decode(line), "session line");
            T.equal(log.opponent.missing(gameId), List.of(), "the opponent's log has no gap");
            RollSession.Outcome refused = session.send("Roll", "{\"dice\":\"0d6\",\"purpose\":\"nonsense\"}", "Roll 0d6");
            T.check(!refused.ok() && refused.failureChatLine.startsWith("✗ Arbiter refused Roll 0d6: 400"), "a refusal is reported: " + refused.failureChatLine);
            T.equal(session.pendingCommandId(), null, "a refused command is not pending");
        }
    }

    static void unavailableRetry() throws Exception {
        Map<String, Object> game = client.createGame("dice", null);
        String gameId = (String) game.get("gameId");
        String p1 = gameToken(game, "player1");
        int port = URI.create(url).getPort();
        try (TestProxy proxy = new TestProxy(port, TestProxy.Mode.UNAVAILABLE_FIRST, "1")) {
            ArbiterClient c = new ArbiterClient(proxy.url()).timeouts(2_000, 5_000).retries(3, 5, 100);
            long t0 = System.nanoTime();
            Receipt r = c.command(gameId, p1, ArbiterClient.newCommandId(), "Roll", "{\"dice\":\"d6\",\"purpose\":\"p\"}");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            T.equal(c.lastAttempts(), 2, "503 then success: two attempts");
            T.check(ms >= 1_000 && ms < 5_000, "Retry-After: 1 was honoured (" + ms + " ms)");
            T.equal(proxy.upstreamStatuses, List.of(201), "the server saw the command once");
            T.equal(r.dice.size(), 1, "the roll came back");
        }
        try (TestProxy proxy = new TestProxy(port, TestProxy.Mode.UNAVAILABLE_FIRST, "120")) {
            ArbiterClient c = new ArbiterClient(proxy.url()).timeouts(2_000, 5_000).retries(3, 5, 100);
            long t0 = System.nanoTime();
            try {
                c.command(gameId, p1, ArbiterClient.newCommandId(), "Roll", "{\"dice\":\"d6\",\"purpose\":\"p\"}");
                T.check(false, "a Retry-After beyond the cap gives up");
            } catch (ArbiterClient.Unavailable e) {
                long ms = (System.nanoTime() - t0) / 1_000_000;
                T.check(ms < 2_000 && e.getMessage().contains("120"), "a Retry-After of 120 s beyond the 5 s cap: gives up at once (" + ms + " ms): " + e.getMessage());
                T.equal(proxy.upstreamStatuses, List.of(), "nothing reached the server");
            }
        }
    }

    static void serverDown() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            port = s.getLocalPort();
        }
        ArbiterClient down = new ArbiterClient("http://127.0.0.1:" + port).timeouts(500, 500).retries(3, 5, 50);
        long t0 = System.nanoTime();
        try {
            down.command("g-x", "token", ArbiterClient.newCommandId(), "Roll", "{\"dice\":\"d6\",\"purpose\":\"p\"}");
            T.check(false, "no server: the client fails");
        } catch (ArbiterClient.Unavailable e) {
            long ms = (System.nanoTime() - t0) / 1_000_000;
            T.equal(down.lastAttempts(), 3, "three bounded attempts");
            T.check(ms < 3_000, "and gives up quickly (" + ms + " ms)");
            String line = LogLine.unavailableLine("Roll d6 \"assault\"", e.getMessage());
            T.check(line.startsWith("✗ Arbiter server unreachable") && line.contains("no result for Roll d6") && line.contains("never rolls locally") && safe(line), "chat: " + line);
            System.out.println("   " + line);
        }
    }

    static boolean safe(String line) {
        for (int i = 0; i < line.length(); i++) if (TextLine.isUnsafe(line.charAt(i))) return false;
        return true;
    }
}
