package org.arbiter.kit.vassal;

import VASSAL.build.AbstractToolbarItem;
import VASSAL.build.Buildable;
import VASSAL.build.GameModule;
import VASSAL.build.module.documentation.HelpFile;
import VASSAL.command.Command;
import VASSAL.configure.StringConfigurer;
import VASSAL.preferences.Prefs;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.swing.JOptionPane;
import javax.swing.SwingUtilities;
import org.arbiter.kit.ArbiterClient;
import org.arbiter.kit.Json;
import org.arbiter.kit.ModuleLog;
import org.arbiter.kit.PlayerLink;
import org.arbiter.kit.Receipt;
import org.arbiter.kit.RollSession;
import org.arbiter.kit.TextLine;
import org.arbiter.kit.TrustedKeys;

/**
 * What every Arbiter toolbar button shares (docs/vassal.md): the module's one {@link ModuleLog} and
 * command encoder, the player's seat (taken from the timeline link the player pastes once, kept per game in
 * this module's preferences on this computer), the network thread, and posting lines to the log. The
 * buttons themselves only say what to send: {@link ArbiterDiceButton} a Roll, {@link ArbiterCommandButton}
 * any command from a template.
 *
 * Threads: VASSAL calls the buttons and executes commands on the Swing event thread; every network call
 * runs on one background thread shared by the module's buttons, in order (join, then commands), and its
 * result comes back to the event thread with SwingUtilities.invokeLater. The seat is read and written on
 * the event thread only.
 */
public abstract class ArbiterButton extends AbstractToolbarItem {
    public static final String SERVER_URL = "arbiterUrl";
    public static final String PINNED = "arbiterPinnedFingerprints";
    public static final String KEYS_JSON = "arbiterKeys";
    /** The module preference (Preferences, "Arbiter" tab) where a player pins the fingerprints a league publishes. */
    public static final String PREF_PINNED = "arbiterPinnedFingerprints";
    /** Per game: the player's link, under this prefix and the game id; never shown in the Preferences window. */
    public static final String PREF_LINK = "arbiterLink.";
    static final String PREFS_TAB = "Arbiter";

    /** One log per module: every Arbiter line of the game log goes through it, in log order. */
    private static volatile ModuleLog moduleLog;
    private static ArbiterCommandEncoder encoder;
    /** The button that answers for the Arbiter state of a saved game (one, however many buttons the module has). */
    private static ArbiterButton owner;
    private static int buttons;
    private static boolean pinsPreference;
    private static final ExecutorService NETWORK = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "arbiter-network");
        t.setDaemon(true);
        return t;
    });

    /** One player's seat in one game. {@code caughtUp} is read and written on the network thread only. */
    static final class Seat {
        final RollSession session;
        final String gameId;
        final PlayerLink link;
        boolean caughtUp;
        /** The server refused the link (401, 403, 404) when joining: commands queued behind the join are not sent. Network thread only. */
        boolean refused;
        /** The link is in this module's preferences (the Swing event thread only). */
        boolean kept;
        /** The VASSAL game this seat was taken in ({@link #games} then). */
        final int game = games;

        Seat(RollSession session, PlayerLink link) {
            this.session = session;
            this.gameId = link.gameId;
            this.link = link;
        }

        /** On the Swing event thread: the game this seat was taken in was closed (another one may be open). */
        boolean closed() {
            return game != games;
        }
    }

    private static Seat seat; // the Swing event thread only
    /** How many times a game was closed (the Swing event thread only): an answer that comes after its game was closed is not posted in the next one. */
    private static int games;

    private String serverUrl = "";
    private String pinned = "";
    private String keysJson = "";

    protected ArbiterButton(String tooltip, String text) {
        setLaunchButton(makeLaunchButton(tooltip, text, "", e -> pressed()));
    }

    /** On the Swing event thread: the button was pressed (or its hotkey, e.g. from a piece's Global Hotkey). */
    protected abstract void pressed();

    /** Called by VASSAL once the buildFile attributes are set: registers the module's encoder and preference once. */
    @Override
    public void addTo(Buildable parent) {
        super.addTo(parent);
        synchronized (ArbiterButton.class) {
            if (moduleLog == null) {
                moduleLog = new ModuleLog(new TrustedKeys(List.of()));
                encoder = new ArbiterCommandEncoder(moduleLog);
                GameModule.getGameModule().addCommandEncoder(encoder);
            }
            if (!pinsPreference) {
                GameModule.getGameModule().getPrefs().addOption(PREFS_TAB, new StringConfigurer(PREF_PINNED, "Pinned Arbiter key fingerprints (ed25519:…, as your league or organizer publishes them)"));
                pinsPreference = true;
            }
            if (owner == null) owner = this;
            buttons++;
            trustInto(moduleLog.keys()); // every Arbiter button's pins and keys count, and the player's pinned preference
        }
    }

    @Override
    public void removeFrom(Buildable parent) {
        super.removeFrom(parent);
        synchronized (ArbiterButton.class) {
            if (owner == this) owner = null; // another button takes over at the next save
            if (--buttons == 0) {
                GameModule.getGameModule().removeCommandEncoder(encoder);
                encoder = null;
                moduleLog = null;
            }
        }
    }

    /** A game starts or ends (also around loading a saved game): a new game forgets the receipts and the seat of the last one. */
    @Override
    public void setup(boolean gameStarting) {
        super.setup(gameStarting);
        if (!gameStarting) {
            seat = null; // the token belongs to that game; it was kept in memory and preferences only, never logged
            games++;
            synchronized (ArbiterButton.class) {
                if (owner == null) owner = this;
                if (owner == this && moduleLog != null) moduleLog.reset();
            }
        }
    }

    /**
     * What a saved game, the start of a log file, and a player joining online receive: every
     * Arbiter line this client has read, in one state line, checked again when it is restored.
     */
    @Override
    public Command getRestoreCommand() {
        synchronized (ArbiterButton.class) {
            if (owner == null) owner = this;
            if (owner != this || moduleLog == null) return null;
            String state = moduleLog.stateLine();
            return state == null ? null : new ArbiterLogCommand(state, moduleLog);
        }
    }

    private void trustInto(TrustedKeys keys) {
        Object preferred = GameModule.getGameModule().getPrefs().getValue(PREF_PINNED);
        for (String fp : (pinned + " " + (preferred == null ? "" : preferred)).split("[,\\s]+")) {
            if (fp.isEmpty()) continue;
            try {
                keys.pin(fp);
            } catch (IllegalArgumentException e) {
                VassalChat.warn("Arbiter: " + e.getMessage());
            }
        }
        if (!keysJson.isEmpty()) {
            try {
                keys.learnAll(Json.parseObject(keysJson));
            } catch (Json.JsonException e) {
                VassalChat.warn("Arbiter: the keys attribute is not JSON: " + e.getMessage());
            }
        }
    }

    /** On the Swing event thread: asks the player for a line of text; null when cancelled. */
    protected String ask(String question, String title) {
        return JOptionPane.showInputDialog(GameModule.getGameModule().getPlayerWindow(), question, title, JOptionPane.QUESTION_MESSAGE);
    }

    /** On the Swing event thread: asks the player to confirm. */
    protected boolean confirm(String question, String title) {
        return JOptionPane.showConfirmDialog(GameModule.getGameModule().getPlayerWindow(), question, title, JOptionPane.OK_CANCEL_OPTION, JOptionPane.QUESTION_MESSAGE) == JOptionPane.OK_OPTION;
    }

    protected static void say(String text) {
        VassalChat.show(TextLine.escape(text));
    }

    /**
     * On the Swing event thread: this player's seat, joining first if needed. The link comes from this
     * module's preferences when this game's log shows one Arbiter game and a link for it was pasted before;
     * otherwise the player pastes it. Null when there is none (the reason is in chat).
     */
    protected Seat seat() {
        if (seat != null) return seat;
        ModuleLog log = moduleLog;
        if (log == null) return null;
        trustInto(log.keys()); // a fingerprint pinned in Preferences since the module was loaded
        List<String> games = log.verifier().gameIds();
        PlayerLink link = null;
        for (String game : games) { // the one game of this log the player pasted a link for; none when several
            PlayerLink remembered = rememberedLink(game);
            if (remembered == null) continue;
            if (link != null) {
                link = null;
                break;
            }
            link = remembered;
        }
        if (link == null) {
            String text = ask("Paste your Arbiter game link (…/#/games/…?token=…).\nIt is kept in this module's preferences on this computer, never in the game, its log or chat.", "Arbiter");
            if (text == null || text.isBlank()) return null;
            try {
                link = PlayerLink.parse(text);
            } catch (IllegalArgumentException e) {
                say("✗ Arbiter: " + e.getMessage());
                return null;
            }
            if (!games.isEmpty() && !games.contains(link.gameId)) {
                // Anyone can post a genuine line of another game into this log, so the player's own link decides.
                say("⚠ Arbiter: this game's log shows Arbiter game " + String.join(", ", games) + ", and your link is for game " + link.gameId
                        + ": your rolls go to game " + link.gameId + " (if that is the wrong game, ask your organizer for the right link)");
            }
        }
        if (!serverUrl.isEmpty() && !PlayerLink.sameServer(serverUrl, link.serverUrl)) {
            say("✗ Arbiter: this module plays on " + serverUrl + ", and your link is for " + link.serverUrl + ": ask your organizer for the right link");
            return null;
        }
        Seat s;
        try {
            s = new Seat(new RollSession(new ArbiterClient(link.serverUrl).timeouts(5_000, 15_000).retries(3, 10, 500), link.gameId, link.token()), link);
        } catch (IllegalArgumentException e) {
            say("✗ Arbiter: " + e.getMessage());
            return null;
        }
        seat = s;
        onNetwork(() -> {
            List<String> lines = new ArrayList<>();
            ArbiterClient.ArbiterException failure = catchUp(s, lines);
            if (failure != null && refusesTheLink(failure.status)) s.refused = true;
            onEdt(() -> {
                if (s.closed()) return; // that game's history, read for a game that is no longer open
                lines.forEach(this::sendLine);
                keep(s);
                if (failure != null) {
                    VassalChat.show(joinFailureLine(failure));
                    if (refusesTheLink(failure.status)) forget(s); // a wrong or revoked link: ask again next time
                }
            });
        });
        return s;
    }

    /** The link as stored: rebuilt from its parts, so nothing else the player pasted is kept. */
    private static String text(PlayerLink link) {
        return link.serverUrl + "/#/games/" + percent(link.gameId) + "?token=" + percent(link.token());
    }

    private static String percent(String s) {
        StringBuilder out = new StringBuilder();
        for (byte b : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-_.!~*'()".indexOf(c) >= 0) out.append((char) c);
            else out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16))).append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
        }
        return out.toString();
    }

    private static StringConfigurer linkOption(String gameId) {
        Prefs prefs = GameModule.getGameModule().getPrefs();
        StringConfigurer option = new StringConfigurer(PREF_LINK + gameId, null);
        prefs.addOption(null, option); // null category: kept in the preferences file, shown nowhere; a second add keeps the first
        return option;
    }

    private static PlayerLink rememberedLink(String gameId) {
        linkOption(gameId);
        Object stored = GameModule.getGameModule().getPrefs().getValue(PREF_LINK + gameId);
        if (!(stored instanceof String) || ((String) stored).isEmpty()) return null;
        try {
            PlayerLink link = PlayerLink.parse((String) stored);
            return link.gameId.equals(gameId) ? link : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static void remember(PlayerLink link, String text) {
        linkOption(link.gameId);
        Prefs prefs = GameModule.getGameModule().getPrefs();
        prefs.setValue(PREF_LINK + link.gameId, text);
        try {
            prefs.save();
        } catch (IOException e) {
            say("⚠ Arbiter: your link could not be saved in this module's preferences (" + e.getClass().getSimpleName() + "); you will be asked for it again next time");
        }
    }

    /** On the Swing event thread: once the server has answered with the game's keys and history, the link is kept for the next time this game is opened. */
    private static void keep(Seat s) {
        if (s.kept || !s.caughtUp) return;
        s.kept = true;
        remember(s.link, text(s.link));
    }

    /** On the Swing event thread: the server refused this seat's link; the player is asked for it again at the next press. */
    private static void forget(Seat s) {
        if (seat == s) seat = null;
        remember(s.link, "");
    }

    private static boolean refusesTheLink(int status) {
        return status == 401 || status == 403 || status == 404;
    }

    private static String joinFailureLine(ArbiterClient.ArbiterException e) {
        return TextLine.escape(e instanceof ArbiterClient.Unavailable
                ? "✗ Arbiter server unreachable (" + e.getMessage() + "): cannot read the game's keys and history"
                : "✗ Arbiter: cannot read the game's keys and history: " + e.status + " " + e.code + " — " + e.getMessage()
                        + (refusesTheLink(e.status) ? " (check your link: you will be asked for it again)" : ""));
    }

    /** On the network thread: the keys line and the commits this log has not shown yet; null, or why not. */
    private static ArbiterClient.ArbiterException catchUp(Seat s, List<String> lines) {
        ModuleLog log = moduleLog;
        Receipt last = log == null ? null : log.verifier().last(s.gameId);
        try {
            lines.add(s.session.keysLine());
            lines.addAll(s.session.history(last == null ? 0 : last.seq));
            s.caughtUp = true;
            return null;
        } catch (ArbiterClient.ArbiterException e) {
            lines.clear();
            return e;
        }
    }

    /**
     * On the Swing event thread: sends a command of the seat on the network thread (after catching up, if the
     * join did not reach the server), then posts its lines; in a beacon game, the acceptance, the sender's
     * check, and then the reveal. The button stays disabled until it is done.
     */
    protected void send(Seat s, String type, String payloadJson, String what) {
        if (holdsTheLink(s.link, type) || holdsTheLink(s.link, payloadJson)) {
            say("✗ Arbiter: what you were about to send holds your game link or its token (everyone would see it in the log); nothing was sent");
            return;
        }
        getLaunchButton().setEnabled(false);
        onNetwork(() -> {
            if (s.refused) { // the join just said why, here; nothing is sent with a link the server refused
                onEdt(() -> getLaunchButton().setEnabled(true));
                return;
            }
            List<String> lines = new ArrayList<>();
            ArbiterClient.ArbiterException failure = s.caughtUp ? null : catchUp(s, lines);
            if (failure != null && refusesTheLink(failure.status)) {
                s.refused = true;
                onEdt(() -> {
                    VassalChat.show(joinFailureLine(failure));
                    forget(s);
                    getLaunchButton().setEnabled(true);
                });
                return;
            }
            RollSession.Outcome outcome = s.session.send(type, payloadJson, what);
            onEdt(() -> {
                if (afterItsGame(s, what)) return;
                lines.forEach(this::sendLine);
                keep(s);
                if (failure != null) VassalChat.show(joinFailureLine(failure));
                if (outcome.refusedStatus == 401 || outcome.refusedStatus == 403) { // the token stopped working mid-game: said here only, never to the opponent
                    VassalChat.show(outcome.failureChatLine + " (your link no longer works: you will be asked for it again)");
                    forget(s);
                    getLaunchButton().setEnabled(true);
                    return;
                }
                publish(outcome);
                if (outcome.awaitingReveal) awaitReveal(s);
                else getLaunchButton().setEnabled(true);
            });
        });
    }

    /**
     * True when the text holds the player's token or a link's {@code token=}, as typed or inside a JSON string
     * (however escaped): e.g. the link, still in the clipboard, pasted once more as a roll's purpose.
     */
    static boolean holdsTheLink(PlayerLink link, String text) {
        if (text == null) return false;
        List<String> texts = new ArrayList<>(List.of(text));
        try {
            strings(Json.parse(text), texts);
        } catch (Json.JsonException e) {
            // not JSON: the text as it is
        }
        String token = link.token();
        for (String t : texts) {
            if (t.contains(token) || t.contains(percent(token)) || t.toLowerCase(Locale.ROOT).contains("token=")) return true;
        }
        return false;
    }

    private static void strings(Object json, List<String> out) {
        if (json instanceof String) {
            out.add((String) json);
        } else if (json instanceof Map) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) json).entrySet()) {
                out.add(String.valueOf(e.getKey()));
                strings(e.getValue(), out);
            }
        } else if (json instanceof List) {
            for (Object o : (List<?>) json) strings(o, out);
        }
    }

    /**
     * Runs work on the network thread. Whatever it throws, the button works again and the player is told here
     * (an exception that escaped would leave the button greyed out until VASSAL restarts, and say nothing).
     */
    private void onNetwork(Runnable work) {
        NETWORK.execute(() -> {
            try {
                work.run();
            } catch (RuntimeException e) {
                SwingUtilities.invokeLater(() -> failedHere(e));
            }
        });
    }

    /** Runs the rest of a press on the Swing event thread, with the same guarantee as {@link #onNetwork}. */
    private void onEdt(Runnable work) {
        SwingUtilities.invokeLater(() -> {
            try {
                work.run();
            } catch (RuntimeException e) {
                failedHere(e);
            }
        });
    }

    private void failedHere(RuntimeException e) {
        say("✗ Arbiter: this press failed on this computer (" + e.getClass().getSimpleName() + "); nothing more is shown for it — the button works again");
        getLaunchButton().setEnabled(true);
    }

    /** On the Swing event thread, after a beacon game's command was accepted (202): waits for the reveal on the network thread, then posts it. */
    private void awaitReveal(Seat s) {
        onNetwork(() -> {
            RollSession.Outcome revealed = s.session.awaitReveal();
            onEdt(() -> {
                if (afterItsGame(s, "the reveal")) return;
                getLaunchButton().setEnabled(true);
                publish(revealed);
            });
        });
    }

    /**
     * On the Swing event thread: true when the answer came after the game it was sent from was closed. It is then
     * not posted (it would land in whatever game is open now), only said here; the server keeps it in its own game.
     */
    private boolean afterItsGame(Seat s, String what) {
        if (!s.closed()) return false;
        say("⚠ Arbiter: the answer to " + what + " came after its game was closed, so it is not posted in this one (the server keeps it in the history of game " + s.gameId + ")");
        getLaunchButton().setEnabled(true);
        return true;
    }

    /** On the Swing event thread: lines go to the log (checked and shown on every client); a failure is said in chat to everyone. */
    private void publish(RollSession.Outcome outcome) {
        outcome.logLines.forEach(this::sendLine);
        outcome.chatLines.forEach(VassalChat::send); // the sender's check of a beacon roll, a late reveal
        if (!outcome.ok()) VassalChat.send(outcome.failureChatLine); // shows it, and sends and logs it
    }

    private void sendLine(String line) {
        if (moduleLog == null) return; // the module's Arbiter buttons were all removed
        Command c = new ArbiterLogCommand(line, moduleLog);
        c.execute(); // checks and shows it here
        GameModule.getGameModule().sendAndLog(c); // and on every other client, and in the log for replays
    }

    // The buildFile attributes: the toolbar button's, then the shared Arbiter ones, then the button's own.

    protected abstract String[] ownAttributeNames();

    protected abstract String[] ownAttributeDescriptions();

    protected abstract Class<?>[] ownAttributeTypes();

    /** True when the key is one of the button's own. */
    protected abstract boolean setOwnAttribute(String key, String value);

    /** The value, or null when the key is not one of the button's own. */
    protected abstract String ownAttribute(String key);

    @Override
    public String[] getAttributeNames() {
        return concat(concat(super.getAttributeNames(), SERVER_URL, PINNED, KEYS_JSON), ownAttributeNames());
    }

    @Override
    public String[] getAttributeDescriptions() {
        return concat(concat(super.getAttributeDescriptions(), "Arbiter server URL (optional: the player's link gives it)", "Pinned key fingerprints (ed25519:…)", "Server keys (JSON of GET /keys)"), ownAttributeDescriptions());
    }

    @Override
    public Class<?>[] getAttributeTypes() {
        Class<?>[] base = super.getAttributeTypes();
        Class<?>[] own = ownAttributeTypes();
        Class<?>[] out = Arrays.copyOf(base, base.length + 3 + own.length);
        Arrays.fill(out, base.length, base.length + 3, String.class);
        System.arraycopy(own, 0, out, base.length + 3, own.length);
        return out;
    }

    @Override
    public void setAttribute(String key, Object value) {
        String v = value == null ? "" : value.toString();
        if (SERVER_URL.equals(key)) serverUrl = v.strip();
        else if (PINNED.equals(key)) pinned = v.strip();
        else if (KEYS_JSON.equals(key)) keysJson = v.strip();
        else if (!setOwnAttribute(key, v)) super.setAttribute(key, value);
    }

    @Override
    public String getAttributeValueString(String key) {
        if (SERVER_URL.equals(key)) return serverUrl;
        if (PINNED.equals(key)) return pinned;
        if (KEYS_JSON.equals(key)) return keysJson;
        String own = ownAttribute(key);
        return own != null ? own : super.getAttributeValueString(key);
    }

    @Override
    public Class<?>[] getAllowableConfigureComponents() {
        return new Class<?>[0];
    }

    @Override
    public HelpFile getHelpFile() {
        return null;
    }

    static String[] concat(String[] base, String... more) {
        String[] out = Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, out, base.length, more.length);
        return out;
    }
}
