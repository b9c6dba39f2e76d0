package org.arbiter.kit.test;

import VASSAL.build.GameModule;
import VASSAL.counters.GamePiece;
import VASSAL.counters.KeyBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import javax.swing.SwingUtilities;
import org.arbiter.kit.ArbiterClient;
import org.arbiter.kit.LogLine;
import org.arbiter.kit.Receipt;
import org.arbiter.kit.vassal.ArbiterButton;
import org.arbiter.kit.vassal.ArbiterCommandButton;
import org.arbiter.kit.vassal.ArbiterDiceButton;

/**
 * The VASSAL adapter itself (clients/java/vassal), run headless on fakes of the VASSAL classes it uses
 * (clients/java/test/vassal-fakes), against the local server: presses on the Swing event thread, as VASSAL
 * makes them; the dialogs answered by a script. The command button: an unknown property, several pieces
 * selected, a wrong link — nothing sent; the piece's property before the module's; the player's link pasted
 * once and found again per game; a refused token forgotten; the dice button; the lines replayed as a log; the
 * token in no log line, chat line or warning. With "beacon": a France 1944 beacon game, the pending line, the
 * sender's check and the reveal through the command button.
 * Usage: AdapterTests live URL FINGERPRINT | AdapterTests beacon URL FINGERPRINT CHAIN_NAME
 */
public final class AdapterTests {
    static GameModule module;
    static final List<String> secrets = new ArrayList<>();

    /** A button whose dialogs are answered by the test. */
    static final class ScriptedCommandButton extends ArbiterCommandButton {
        final Deque<String> answers = new ArrayDeque<>();
        int asked;
        final List<String> confirmed = new ArrayList<>();

        @Override
        protected String ask(String question, String title) {
            asked++;
            return answers.poll();
        }

        @Override
        protected boolean confirm(String question, String title) {
            confirmed.add(question);
            return true;
        }
    }

    static final class ScriptedDiceButton extends ArbiterDiceButton {
        final Deque<String> answers = new ArrayDeque<>();
        int asked;

        @Override
        protected String ask(String question, String title) {
            asked++;
            return answers.poll();
        }
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        LiveTests.url = args[1];
        LiveTests.pinned = args[2];
        LiveTests.client = new ArbiterClient(args[1]).timeouts(2_000, 25_000).retries(3, 5, 100).beaconPendingWait(30);
        module = new GameModule();
        GameModule.init(module);
        if (args[0].equals("beacon")) {
            T.section("a France 1944 beacon game through the command button: pending, the sender's check, the reveal", () -> beacon(args[3]));
        } else {
            T.section("the command button: nothing sent on a missing property, several pieces or a wrong link; a combat from the player's link", AdapterTests::commandButton);
            T.section("the dice button, in a new game: the link of that game, the purpose, the roll", AdapterTests::diceButton);
            T.section("a link with a game id or port no server has: refused in chat, the button works again", AdapterTests::impossibleLinks);
            T.section("the link pasted again as a purpose, or a token in a typed command: refused here, nothing sent", AdapterTests::linkNeverSent);
            T.section("a refused link: said here once, never sent to the opponent, forgotten (on the first press and mid-game)", AdapterTests::refusedLink);
            T.section("an answer that comes after its game was closed is not posted in the next game", AdapterTests::lateAnswer);
            T.section("a genuine line of another game posted into the log first: the player's own link still decides", AdapterTests::foreignLineFirst);
            T.section("the confirmation shows the command on one line, clipped; a link is kept only once the server answered it", AdapterTests::confirmAndKeep);
            T.section("a player's text in chat as VASSAL shows it: character references and tags stay text, a combat id stays quoted", AdapterTests::playerTextInChat);
        }
        T.section("the token is in no log line, chat line or warning", AdapterTests::noToken);
        System.exit(T.finish());
    }

    static void onEdt(Runnable r) throws Exception {
        SwingUtilities.invokeAndWait(r);
    }

    static void press(ArbiterButton button) throws Exception {
        onEdt(() -> button.getLaunchButton().press());
    }

    /** Bounded wait for what the network thread hands back to the event thread. */
    static boolean until(String what, BooleanSupplier condition) throws Exception {
        long deadline = System.nanoTime() + 45_000_000_000L;
        while (System.nanoTime() < deadline) {
            boolean[] ok = new boolean[1];
            onEdt(() -> ok[0] = condition.getAsBoolean());
            if (ok[0]) return true;
            Thread.sleep(50);
        }
        return T.check(false, "waited 45 s for " + what);
    }

    static boolean idle(ArbiterButton b) throws Exception {
        return until("the button to be enabled again", () -> b.getLaunchButton().isEnabled());
    }

    static List<Receipt> receipts() {
        List<Receipt> out = new ArrayList<>();
        for (String line : module.logged) {
            if (line.startsWith("ARB\t")) {
                try {
                    out.add(LogLine.decode(line));
                } catch (Exception e) {
                    T.check(false, "a logged line decodes: " + e);
                }
            }
        }
        return out;
    }

    static boolean shownStartsWith(String prefix) {
        return module.chatter.shown.stream().anyMatch(s -> s.startsWith(prefix));
    }

    static String link(String gameId, String token) {
        secrets.add(token);
        return LiveTests.url + "/#/games/" + LiveTests.percent(gameId) + "?token=" + LiveTests.percent(token);
    }

    static ScriptedCommandButton commandButton(String template) {
        ScriptedCommandButton b = new ScriptedCommandButton();
        b.setAttribute("name", "Resolve combat");
        b.setAttribute(ArbiterButton.PINNED, LiveTests.pinned);
        b.setAttribute(ArbiterCommandButton.TEMPLATE, template);
        b.setAttribute(ArbiterCommandButton.LABEL, "combat");
        b.addTo(null);
        return b;
    }

    static GamePiece piece(Map<String, String> properties) {
        return key -> properties.get(String.valueOf(key));
    }

    static void commandButton() throws Exception {
        ArbiterClient client = LiveTests.client;
        LiveTests.keysDoc = client.keys();
        ScriptedCommandButton button = commandButton("{\"type\":\"ResolveCombat\",\"payload\":{\"combatId\":\"$CombatId$\"}}");
        T.equal(module.encoders.size(), 1, "the module's encoder is registered once");
        T.equal(module.prefs.categories.get(ArbiterButton.PREF_PINNED), "Arbiter", "the pinned-fingerprints preference is on the Arbiter tab");
        Map<String, Object> game = client.createGame("france44", null);
        String gameId = (String) game.get("gameId");
        String allied = LiveTests.gameToken(game, "allied");
        LiveTests.declaredCombat(game);
        int commits = client.events(gameId, allied, 0, 1000).size();

        press(button);
        T.check(module.chatter.shown.stream().anyMatch(s -> s.contains("no property named CombatId is set") && s.contains("nothing was sent")), "an unknown property: said in chat, nothing sent: " + module.chatter.shown);
        T.equal(button.asked, 0, "... and no link asked for");
        KeyBuffer.getBuffer().selected.addAll(List.of(piece(Map.of("CombatId", "c1")), piece(Map.of("CombatId", "c2"))));
        press(button);
        T.check(shownStartsWith("✗ Arbiter: 2 pieces are selected"), "two pieces selected: said in chat, nothing sent");
        KeyBuffer.getBuffer().selected.clear();
        KeyBuffer.getBuffer().selected.add(piece(Map.of("CombatId", "c1")));
        module.properties.put("CombatId", "c-module");
        secrets.add(allied);
        button.answers.add("http://arbiter.example.org/#/games/" + gameId + "?token=" + allied);
        press(button);
        T.check(module.chatter.shown.stream().anyMatch(s -> s.startsWith("✗ Arbiter: That is not your Arbiter game link: it must start with https://")), "a wrong link: said in chat");
        T.equal(module.logged, List.of(), "nothing was logged so far");
        T.equal(client.events(gameId, allied, 0, 1000).size(), commits, "and the server received nothing");

        button.answers.add(link(gameId, allied));
        press(button);
        T.check(button.confirmed.size() == 2 && button.confirmed.get(1).startsWith("Send ResolveCombat {\"combatId\":\"c1\"}"), "the player confirms the filled-in command (the piece's c1, not the module's): " + button.confirmed);
        until("the combat's receipt in the log", () -> receipts().stream().anyMatch(r -> "ResolveCombat".equals(r.commandType)));
        idle(button);
        List<Receipt> logged = receipts();
        T.check(module.logged.get(0).startsWith("ARBKEYS\t"), "the keys line first");
        T.equal(logged.size(), commits + 1, "then the game's history from #1, then the combat");
        Receipt combat = logged.get(logged.size() - 1);
        T.check("ResolveCombat".equals(combat.commandType) && "allied".equals(combat.actor) && combat.dice.size() == 1, "the combat: allied, one die");
        T.check(shownStartsWith("✓ #" + combat.seq + " allied ResolveCombat \"c1\" "), "chat: the result with its ✓: " + module.chatter.shown.get(module.chatter.shown.size() - 1));
        T.check(module.chatter.shown.stream().noneMatch(s -> s.startsWith("✗✗") || s.startsWith("⚠")), "no check failed, no gap");
        T.equal(module.prefs.stored.get(ArbiterButton.PREF_LINK + gameId), link(gameId, allied), "the link is kept in the module's preferences, under the game's id");

        // A saved game opened again: a new game, the log replayed, then a press: no link asked.
        onEdt(() -> button.setup(false));
        List<String> log = new ArrayList<>(module.logged);
        int shownBefore = module.chatter.shown.size();
        onEdt(() -> log.forEach(line -> module.encoders.get(0).decode(line).execute()));
        List<String> replayed = module.chatter.shown.subList(shownBefore, module.chatter.shown.size());
        T.check(replayed.size() == log.size() && replayed.stream().allMatch(s -> s.startsWith("✓")), "the replayed log: every line ✓");
        int asked = button.asked;
        press(button);
        until("the answer to the second ResolveCombat", () -> module.chatter.sent.stream().anyMatch(s -> s.startsWith("✗ Arbiter refused ResolveCombat combat")));
        idle(button);
        T.equal(button.asked, asked, "the link was found in the preferences: not asked again");

        // A link whose token the server refuses: said, forgotten, asked again at the next press.
        onEdt(() -> button.setup(false));
        KeyBuffer.getBuffer().selected.clear();
        Map<String, Object> other = client.createGame("france44", null);
        String otherId = (String) other.get("gameId");
        button.answers.add(link(otherId, "not-" + LiveTests.gameToken(other, "allied")));
        press(button);
        until("the refusal of the token", () -> module.chatter.shown.stream().anyMatch(s -> s.contains("cannot read the game's keys and history") && s.contains("check your link")));
        idle(button);
        T.equal(module.prefs.stored.get(ArbiterButton.PREF_LINK + otherId), "", "the refused link is forgotten");
        int before = button.asked;
        press(button);
        T.equal(button.asked, before + 1, "the next press asks for the link again");
    }

    static void diceButton() throws Exception {
        ScriptedDiceButton dice = new ScriptedDiceButton();
        dice.setAttribute(ArbiterDiceButton.DICE, "3d6");
        dice.addTo(null);
        onEdt(() -> dice.setup(false));
        Map<String, Object> game = LiveTests.client.createGame("dice", null);
        String gameId = (String) game.get("gameId");
        dice.answers.add(link(gameId, LiveTests.gameToken(game, "player1")));
        dice.answers.add("assault on 2708");
        press(dice);
        until("the roll's receipt", () -> receipts().stream().anyMatch(r -> "Roll".equals(r.commandType)));
        idle(dice);
        T.equal(dice.asked, 2, "the link, then the purpose");
        T.check(shownStartsWith("✓ #2 player1 Roll \"assault on 2708\" 3d6, dice "), "chat: the roll with its purpose and ✓ (pinned by the other button): " + module.chatter.shown.get(module.chatter.shown.size() - 1));
    }

    /** A new game, as VASSAL starts it: every component is told the last one ended. */
    static void newGame() throws Exception {
        onEdt(() -> module.components.forEach(c -> c.setup(false)));
    }

    static void impossibleLinks() throws Exception {
        for (String bad : List.of("http://127.0.0.1:9/#/games/g%21?token=abc-impossible", "http://127.0.0.1:9/#/games/..%2F..%2Fadmin?token=abc-impossible",
                "http://localhost:99999/#/games/g-1?token=abc-impossible")) {
            secrets.add("abc-impossible");
            ScriptedDiceButton dice = new ScriptedDiceButton();
            dice.addTo(null);
            newGame();
            int shown = module.chatter.shown.size(), logged = module.logged.size();
            dice.answers.add(bad);
            dice.answers.add("a roll that cannot be made");
            press(dice);
            idle(dice);
            List<String> said = module.chatter.shown.subList(shown, module.chatter.shown.size());
            T.check(said.stream().anyMatch(l -> l.startsWith("✗ Arbiter: That is not your Arbiter game link: ")), "refused in chat: " + said);
            T.equal(dice.asked, 1, "... before the purpose is asked");
            T.equal(module.logged.size(), logged, "nothing logged");
            dice.answers.add(bad);
            press(dice);
            T.equal(dice.asked, 2, "the next press asks for the link again (the wrong one was not kept)");
            dice.removeFrom(null);
        }
    }

    static void linkNeverSent() throws Exception {
        ScriptedDiceButton dice = new ScriptedDiceButton();
        dice.addTo(null);
        newGame();
        Map<String, Object> game = LiveTests.client.createGame("dice", null);
        String gameId = (String) game.get("gameId");
        String token = LiveTests.gameToken(game, "player1");
        String link = link(gameId, token);
        int shown = module.chatter.shown.size();
        dice.answers.add(link);
        dice.answers.add(link); // the link still in the clipboard: Ctrl+V Enter, Ctrl+V Enter
        press(dice);
        until("the keys line of the game joined", () -> module.logged.stream().anyMatch(l -> l.startsWith("ARBKEYS\t")));
        dice.answers.add("see token=" + token.substring(0, 4));
        press(dice);
        ScriptedCommandButton typed = new ScriptedCommandButton();
        typed.addTo(null);
        typed.answers.add("{\"type\":\"Roll\",\"payload\":{\"dice\":\"1d6\",\"purpose\":\"" + String.format("\\u%04x", (int) token.charAt(0)) + token.substring(1) + "\"}}");
        press(typed);
        List<String> said = module.chatter.shown.subList(shown, module.chatter.shown.size());
        T.equal(said.stream().filter(l -> l.startsWith("✗ Arbiter: what you were about to send holds your game link or its token")).count(), 3L, "three refusals, said here only: " + said);
        T.check(module.chatter.sent.stream().noneMatch(l -> l.contains("holds your game link")), "... not sent to the opponent");
        T.check(dice.getLaunchButton().isEnabled() && typed.getLaunchButton().isEnabled(), "the buttons work");
        dice.answers.add("a real roll");
        press(dice);
        until("the real roll's receipt", () -> receipts().stream().anyMatch(r -> gameId.equals(r.gameId) && "Roll".equals(r.commandType)));
        idle(dice);
        List<Receipt> onServer = LiveTests.client.events(gameId, token, 0, 1000);
        T.equal(onServer.size(), 2, "the server received the game's creation and the one real roll only");
        for (Receipt r : onServer) T.check(!r.canonicalText().contains(token), "commit #" + r.seq + " does not hold the token");
        typed.removeFrom(null);
        dice.removeFrom(null);
    }

    static void refusedLink() throws Exception {
        ScriptedDiceButton dice = new ScriptedDiceButton();
        dice.addTo(null);
        newGame();
        Map<String, Object> game = LiveTests.client.createGame("dice", null);
        String gameId = (String) game.get("gameId");
        String token = LiveTests.gameToken(game, "player1");
        int shown = module.chatter.shown.size(), sent = module.chatter.sent.size();
        dice.answers.add(link(gameId, "not-" + token));
        dice.answers.add("a roll with a wrong link");
        press(dice);
        idle(dice);
        until("the refusal", () -> module.chatter.shown.stream().skip(shown).anyMatch(l -> l.contains("check your link")));
        idle(dice);
        List<String> said = module.chatter.shown.subList(shown, module.chatter.shown.size());
        T.equal(said.size(), 1, "a wrong link on the first press: one line, here: " + said);
        T.equal(module.chatter.sent.size(), sent, "... nothing sent to the opponent or the log");
        T.equal(module.prefs.stored.get(ArbiterButton.PREF_LINK + gameId), "", "the refused link is forgotten");

        dice.answers.add(link(gameId, token));
        dice.answers.add("a first roll");
        press(dice);
        until("the first roll's receipt", () -> receipts().stream().anyMatch(r -> gameId.equals(r.gameId) && "Roll".equals(r.commandType)));
        idle(dice);
        revoke(gameId, LiveTests.gameToken(game, "organizer"), "player1");
        int shown2 = module.chatter.shown.size(), sent2 = module.chatter.sent.size(), asked = dice.asked;
        dice.answers.add("after the revocation");
        press(dice);
        until("the refusal of the revoked token", () -> module.chatter.shown.stream().skip(shown2).anyMatch(l -> l.startsWith("✗ Arbiter refused Roll")));
        idle(dice);
        List<String> later = module.chatter.shown.subList(shown2, module.chatter.shown.size());
        T.check(later.size() == 1 && later.get(0).contains("401") && later.get(0).contains("you will be asked for it again"), "a token revoked mid-game: said here: " + later);
        T.equal(module.chatter.sent.size(), sent2, "... and not sent to the opponent or the log");
        T.equal(module.prefs.stored.get(ArbiterButton.PREF_LINK + gameId), "", "the revoked link is forgotten");
        T.equal(dice.asked, asked + 1, "(the purpose was asked, not the link)");
        dice.answers.add(link(gameId, token));
        press(dice);
        T.equal(dice.asked, asked + 3, "the next press asks for the link again, then the purpose");
        dice.removeFrom(null);
    }

    /** DELETE /games/{id}/tokens/{role} with the organizer's token: the role's token stops working. */
    static void revoke(String gameId, String organizer, String role) throws Exception {
        java.net.HttpURLConnection http = (java.net.HttpURLConnection) java.net.URI.create(LiveTests.url + "/games/" + gameId + "/tokens/" + role).toURL().openConnection();
        http.setRequestMethod("DELETE");
        http.setRequestProperty("Authorization", "Bearer " + organizer);
        T.equal(http.getResponseCode(), 200, "the organizer revokes " + role + "'s token");
        http.getInputStream().close();
    }

    static void lateAnswer() throws Exception {
        ScriptedDiceButton dice = new ScriptedDiceButton();
        dice.addTo(null);
        newGame();
        Map<String, Object> game = LiveTests.client.createGame("dice", null);
        String gameId = (String) game.get("gameId");
        dice.answers.add(link(gameId, LiveTests.gameToken(game, "player1")));
        dice.answers.add("the first roll");
        press(dice);
        until("the first roll's receipt", () -> receipts().stream().anyMatch(r -> gameId.equals(r.gameId) && "Roll".equals(r.commandType)));
        idle(dice);
        int logged = module.logged.size(), shown = module.chatter.shown.size();
        dice.answers.add("a roll whose game is closed at once");
        // The press and the closing of the game in one event: the answer cannot come back before the game is closed.
        onEdt(() -> {
            dice.getLaunchButton().press();
            module.components.forEach(c -> c.setup(false));
        });
        until("the late answer", () -> module.chatter.shown.stream().skip(shown).anyMatch(l -> l.startsWith("⚠ Arbiter: the answer to Roll 2d6 came after its game was closed")));
        idle(dice);
        T.equal(module.logged.size(), logged, "nothing posted in the next game");
        T.equal(LiveTests.client.events(gameId, LiveTests.gameToken(game, "player1"), 0, 1000).size(), 3, "(the server made the roll, in its own game)");
        dice.removeFrom(null);
    }

    static void foreignLineFirst() throws Exception {
        ScriptedDiceButton dice = new ScriptedDiceButton();
        dice.addTo(null);
        newGame();
        ArbiterClient client = LiveTests.client;
        Map<String, Object> other = client.createGame("dice", null);
        String otherId = (String) other.get("gameId");
        Receipt foreign = client.command(otherId, LiveTests.gameToken(other, "player1"), ArbiterClient.newCommandId(), "Roll", "{\"dice\":\"2d6\",\"purpose\":\"elsewhere\"}");
        // The opponent's client posts the keys and a genuine receipt of another game before this player's first roll.
        List<String> posted = List.of(LogLine.encodeKeys(client.keys()), LogLine.encode(foreign));
        int start = module.logged.size();
        onEdt(() -> posted.forEach(line -> module.encoders.get(0).decode(line).execute()));
        Map<String, Object> game = client.createGame("dice", null);
        String gameId = (String) game.get("gameId");
        int shown = module.chatter.shown.size();
        dice.answers.add(link(gameId, LiveTests.gameToken(game, "player1")));
        dice.answers.add("my own game");
        press(dice);
        until("the roll in the player's own game", () -> receipts().stream().anyMatch(r -> gameId.equals(r.gameId) && "Roll".equals(r.commandType)));
        idle(dice);
        T.check(module.chatter.shown.stream().skip(shown).anyMatch(l -> l.startsWith("⚠ Arbiter: this game's log shows Arbiter game " + otherId + ", and your link is for game " + gameId + ": your rolls go to game " + gameId)),
                "said: the log shows another game, the link decides");
        newGame();
        int asked = dice.asked;
        List<String> log = new ArrayList<>(posted);
        log.addAll(module.logged.subList(start, module.logged.size()));
        onEdt(() -> log.forEach(line -> module.encoders.get(0).decode(line).execute()));
        dice.answers.add("again");
        press(dice);
        T.equal(dice.asked, asked + 1, "the game opened again: the player's link found for the one game of the log it was pasted for (only the purpose asked)");
        until("the second roll", () -> receipts().stream().filter(r -> gameId.equals(r.gameId) && "Roll".equals(r.commandType)).count() == 2);
        idle(dice);
        dice.removeFrom(null);
    }

    static void confirmAndKeep() throws Exception {
        ScriptedCommandButton button = commandButton("{\"type\":\"ResolveCombat\",\"payload\":{\"combatId\":\"$CombatId$\"}}");
        newGame();
        KeyBuffer.getBuffer().selected.clear();
        module.properties.put("CombatId", "c1\u202e\n" + "x".repeat(400));
        int port = LiveTests.unusedPort();
        button.answers.add("http://127.0.0.1:" + port + "/#/games/g-nowhere?token=tok-nowhere");
        secrets.add("tok-nowhere");
        int shown = module.chatter.shown.size();
        press(button);
        String question = button.confirmed.get(button.confirmed.size() - 1);
        T.check(question.startsWith("Send ResolveCombat {\"combatId\":\"c1\\u202e\\\\n") && question.chars().noneMatch(c -> c == 0x202e), "the confirmation: one line that reads left to right: " + question.substring(0, 60));
        T.check(question.length() < 420 && question.contains("x…"), "... clipped (" + question.length() + " characters)");
        until("the server's absence", () -> module.chatter.shown.stream().skip(shown).anyMatch(l -> l.startsWith("✗ Arbiter server unreachable")));
        T.check(!module.prefs.stored.containsKey(ArbiterButton.PREF_LINK + "g-nowhere") || module.prefs.stored.get(ArbiterButton.PREF_LINK + "g-nowhere").isEmpty(),
                "a link the server never answered is not kept in the preferences");
        module.properties.remove("CombatId");
        button.removeFrom(null);
    }

    static void playerTextInChat() throws Exception {
        String purpose = "r1&#8238;<b>x</b>&#x2066;&amp;";
        ScriptedDiceButton dice = new ScriptedDiceButton();
        dice.addTo(null);
        newGame();
        Map<String, Object> game = LiveTests.client.createGame("dice", null);
        dice.answers.add(link((String) game.get("gameId"), LiveTests.gameToken(game, "player1")));
        dice.answers.add(purpose);
        dice.answers.add("-<b>bold</b>&#8238;");
        int shown = module.chatter.shown.size();
        press(dice);
        until("the roll's receipt", () -> module.chatter.shown.stream().skip(shown).anyMatch(l -> l.startsWith("✓ #2 ")));
        idle(dice);
        T.check(shownStartsWith("✓ #2 player1 Roll \"" + purpose + "\" 2d6, dice "), "the purpose on screen exactly as typed: " + module.chatter.shown.get(module.chatter.shown.size() - 1));
        press(dice);
        until("the second roll's receipt", () -> module.chatter.shown.stream().skip(shown).anyMatch(l -> l.startsWith("✓ #3 ")));
        idle(dice);
        T.check(shownStartsWith("✓ #3 player1 Roll \"-<b>bold</b>&#8238;\" "), "a purpose starting with '-' too");
        for (String line : module.chatter.shown.subList(shown, module.chatter.shown.size())) {
            T.check(line.chars().noneMatch(c -> TextLineCheck.unsafe((char) c)), "no control or bidi character on screen: " + line);
        }
        // A line of the adapter that starts with '-' (where VASSAL allows HTML) stays text too.
        onEdt(() -> module.encoders.get(0).decode("ARB\tnot a receipt <b>&#8238;").execute());
        String last = module.chatter.shown.get(module.chatter.shown.size() - 1);
        T.check(last.startsWith("✗✗ ARBITER CHECK FAILED ✗✗") && last.chars().noneMatch(c -> TextLineCheck.unsafe((char) c)), "a broken line from the log: a loud failure, one line: " + last);

        // France 1944: a combat id is the player's text; it must not pass for the result of a genuine ✓ line.
        ArbiterClient client = LiveTests.client;
        Map<String, Object> france = client.createGame("france44", null);
        String gameId = (String) france.get("gameId");
        String allied = LiveTests.gameToken(france, "allied"), german = LiveTests.gameToken(france, "german"), org = LiveTests.gameToken(france, "organizer");
        client.command(gameId, org, ArbiterClient.newCommandId(), "StartTurn", "{\"turn\":1,\"reactionPoints\":{\"allied\":10,\"german\":6}}");
        client.command(gameId, german, ArbiterClient.newCommandId(), "ActivateHQ", "{\"hqId\":\"7\"}");
        client.command(gameId, allied, ArbiterClient.newCommandId(), "ActivateHQ", "{\"hqId\":\"1US\"}");
        client.command(gameId, german, ArbiterClient.newCommandId(), "BeginReactionSegment", "{}");
        client.command(gameId, german, ArbiterClient.newCommandId(), "EndReactionSegment", "{}");
        client.command(gameId, allied, ArbiterClient.newCommandId(), "BeginAttackIncrement", "{}");
        String spoof = "c1 10:7, column 6, die 6 -> DE [ed25519:ubTJDdQV]";
        client.command(gameId, allied, ArbiterClient.newCommandId(), "DeclareCombat", "{\"combatId\":\"" + spoof + "\",\"kind\":\"set-piece\",\"attackers\":["
                + LiveTests.unit("1Inf", "2708", 4) + "],\"defenders\":[" + LiveTests.unit("352", "2809", 7) + "],\"attackerMorale\":4,\"defenderMorale\":3}");
        ScriptedCommandButton resolve = commandButton("{\"type\":\"ResolveCombat\",\"payload\":{\"combatId\":\"$CombatId$\"}}");
        newGame();
        KeyBuffer.getBuffer().selected.clear();
        module.properties.put("CombatId", spoof);
        resolve.answers.add(link(gameId, allied));
        int before = module.chatter.shown.size();
        press(resolve);
        until("the combat's receipt", () -> module.chatter.shown.stream().skip(before).anyMatch(l -> l.contains(" allied ResolveCombat ")));
        idle(resolve);
        String combat = module.chatter.shown.stream().skip(before).filter(l -> l.contains(" allied ResolveCombat ")).findFirst().orElse("");
        T.check(combat.matches("✓ #9 allied ResolveCombat \"" + java.util.regex.Pattern.quote(spoof) + "\" 4:7, column .*"), "the combat id quoted, the real odds after it: " + combat);
        resolve.removeFrom(null);
        dice.removeFrom(null);
    }

    /** The characters the kit never lets onto a chat line (TextLine's list). */
    static final class TextLineCheck {
        static boolean unsafe(char c) {
            return org.arbiter.kit.TextLine.isUnsafe(c);
        }
    }

    static void beacon(String chainName) throws Exception {
        ArbiterClient client = LiveTests.client;
        ScriptedCommandButton air = commandButton("{\"type\":\"RollAirPower\",\"payload\":{\"combatId\":\"$CombatId$\",\"availability\":$AirPowerAvailability$}}");
        air.setAttribute(ArbiterCommandButton.CONFIRM, "false");
        Map<String, Object> game = client.createGame("france44", null, chainName);
        String gameId = (String) game.get("gameId");
        String allied = LiveTests.gameToken(game, "allied"), german = LiveTests.gameToken(game, "german"), org = LiveTests.gameToken(game, "organizer");
        client.command(gameId, org, ArbiterClient.newCommandId(), "StartTurn", "{\"turn\":1,\"reactionPoints\":{\"allied\":10,\"german\":6}}");
        client.command(gameId, german, ArbiterClient.newCommandId(), "ActivateHQ", "{\"hqId\":\"7\"}");
        client.command(gameId, allied, ArbiterClient.newCommandId(), "ActivateHQ", "{\"hqId\":\"1US\"}");
        client.command(gameId, german, ArbiterClient.newCommandId(), "BeginReactionSegment", "{}");
        client.command(gameId, german, ArbiterClient.newCommandId(), "EndReactionSegment", "{}");
        client.command(gameId, allied, ArbiterClient.newCommandId(), "BeginAttackIncrement", "{}");
        String c1 = "{\"combatId\":\"c1\",\"kind\":\"set-piece\",\"attackers\":[" + LiveTests.unit("1Inf", "2708", 4) + "],\"defenders\":[" + LiveTests.unit("352", "2809", 7) + "],\"attackerMorale\":4,\"defenderMorale\":3}";
        client.command(gameId, allied, ArbiterClient.newCommandId(), "DeclareCombat", c1);
        module.properties.put("CombatId", "c1");
        module.properties.put("AirPowerAvailability", "4");
        air.answers.add(link(gameId, allied));
        press(air);
        until("the reveal in the log", () -> receipts().stream().anyMatch(r -> "RevealBeacon".equals(r.commandType)));
        idle(air);
        T.equal(air.confirmed, List.of(), "Ask before sending off: no confirmation");
        List<Receipt> logged = receipts();
        Receipt pending = logged.get(logged.size() - 2), reveal = logged.get(logged.size() - 1);
        T.check("RollAirPower".equals(pending.commandType) && pending.dice.isEmpty(), "the acceptance: RollAirPower, no dice yet");
        T.check("RevealBeacon".equals(reveal.commandType) && reveal.dice.size() == 1 && reveal.seq == pending.seq + 1, "then its reveal, one die");
        T.check(shownStartsWith("✓ #" + pending.seq + " allied RollAirPower \"c1\" waits for drand round "), "chat: pending round r");
        T.check(module.chatter.sent.stream().anyMatch(s -> s.endsWith("was still in the future when the server accepted ✓")), "the sender's check, sent to everyone: " + module.chatter.sent);
        T.check(shownStartsWith("✓ #" + reveal.seq + " server RevealBeacon of #" + pending.seq), "chat: the reveal with its ✓");
    }

    static void noToken() {
        List<String> texts = new ArrayList<>(module.logged);
        texts.addAll(module.chatter.shown);
        texts.addAll(module.chatter.sent);
        texts.addAll(module.warnings);
        T.check(!secrets.isEmpty() && texts.size() > 10, texts.size() + " texts checked");
        for (String text : texts) {
            for (String secret : secrets) T.check(!text.contains(secret), "no token in: " + text.substring(0, Math.min(70, text.length())));
        }
    }
}
