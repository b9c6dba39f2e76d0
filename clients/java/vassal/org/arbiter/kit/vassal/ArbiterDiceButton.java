package org.arbiter.kit.vassal;

import VASSAL.build.AbstractToolbarItem;
import VASSAL.build.Buildable;
import VASSAL.build.GameModule;
import VASSAL.build.module.documentation.HelpFile;
import VASSAL.command.Command;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.swing.JOptionPane;
import javax.swing.SwingUtilities;
import org.arbiter.kit.ArbiterClient;
import org.arbiter.kit.Canonical;
import org.arbiter.kit.Json;
import org.arbiter.kit.ModuleLog;
import org.arbiter.kit.Receipt;
import org.arbiter.kit.RollSession;
import org.arbiter.kit.TextLine;
import org.arbiter.kit.TrustedKeys;

/**
 * A toolbar button that rolls through Arbiter (docs/vassal.md). Everything it relies on — the
 * HTTP client, the receipt checks, the key log walk, the log line codec, the pending-roll rule —
 * is in the plain-JDK kit (org.arbiter.kit), which `npm run test:java` tests against a real
 * server; this class only wires it into VASSAL. Checked against VASSAL's own sources (see
 * docs/vassal.md) and compiled on every test run against our stand-ins of the VASSAL classes.
 *
 * In the module's buildFile.xml it is an element named by the class, under the module's root:
 * {@code <org.arbiter.kit.vassal.ArbiterDiceButton name="Arbiter roll" arbiterUrl="…"
 * arbiterPinnedFingerprints="ed25519:…" arbiterKeys="{…}" arbiterDice="2d6" arbiterCommandType="Roll"/>}
 * (the editor writes it when the designer uses "Add imported class"). Attributes: the server
 * URL, the pinned fingerprints (comma or space separated), the server's published keys (the
 * JSON of GET /keys, so that replays check offline), the dice expression, and the command type
 * (Roll for the dice ruleset).
 *
 * Threads: VASSAL calls the button and executes commands on the Swing event thread; every
 * network call runs on one background thread of this button, in order (join, then rolls), and
 * its result comes back to the event thread with SwingUtilities.invokeLater.
 */
public class ArbiterDiceButton extends AbstractToolbarItem {
    public static final String SERVER_URL = "arbiterUrl";
    public static final String PINNED = "arbiterPinnedFingerprints";
    public static final String KEYS_JSON = "arbiterKeys";
    public static final String DICE = "arbiterDice";
    public static final String COMMAND_TYPE = "arbiterCommandType";

    /** One log per module: every Arbiter line of the game log goes through it, in log order. */
    private static volatile ModuleLog moduleLog;
    private static ArbiterCommandEncoder encoder;
    /** The button that answers for the Arbiter state of a saved game (one, however many buttons the module has). */
    private static ArbiterDiceButton owner;
    private static int buttons;

    private String serverUrl = "http://127.0.0.1:8787";
    private String pinned = "";
    private String keysJson = "";
    private String dice = "2d6";
    private String commandType = "Roll";
    private final ExecutorService network = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "arbiter-network");
        t.setDaemon(true);
        return t;
    });

    public ArbiterDiceButton() {
        setLaunchButton(makeLaunchButton("Roll through Arbiter", "Arbiter roll", "", e -> roll()));
    }

    public static String getConfigureTypeName() {
        return "Arbiter dice button";
    }

    /** Called by VASSAL once the buildFile attributes are set: registers the module's encoder once. */
    @Override
    public void addTo(Buildable parent) {
        super.addTo(parent);
        synchronized (ArbiterDiceButton.class) {
            if (moduleLog == null) {
                moduleLog = new ModuleLog(new TrustedKeys(List.of()));
                encoder = new ArbiterCommandEncoder(moduleLog);
                GameModule.getGameModule().addCommandEncoder(encoder);
            }
            if (owner == null) owner = this;
            buttons++;
            trustInto(moduleLog.keys()); // every Arbiter button's pins and keys count
        }
    }

    @Override
    public void removeFrom(Buildable parent) {
        super.removeFrom(parent);
        synchronized (ArbiterDiceButton.class) {
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
            seat = null; // the token belongs to that game; it was kept in memory only, never logged
            synchronized (ArbiterDiceButton.class) {
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
        synchronized (ArbiterDiceButton.class) {
            if (owner == null) owner = this;
            if (owner != this || moduleLog == null) return null;
            String state = moduleLog.stateLine();
            return state == null ? null : new ArbiterLogCommand(state, moduleLog);
        }
    }

    private void trustInto(TrustedKeys keys) {
        for (String fp : pinned.split("[,\\s]+")) {
            if (fp.isEmpty()) continue;
            try {
                keys.pin(fp);
            } catch (IllegalArgumentException e) {
                GameModule.getGameModule().warn("Arbiter: " + e.getMessage());
            }
        }
        if (!keysJson.isEmpty()) {
            try {
                keys.learnAll(Json.parseObject(keysJson));
            } catch (Json.JsonException e) {
                GameModule.getGameModule().warn("Arbiter: the keys attribute is not JSON: " + e.getMessage());
            }
        }
    }

    /** One player's seat in one game. {@code caughtUp} is read and written on the network thread only. */
    private static final class Seat {
        final RollSession session;
        final String gameId;
        boolean caughtUp;

        Seat(RollSession session, String gameId) {
            this.session = session;
            this.gameId = gameId;
        }
    }

    private Seat seat; // set and read on the Swing event thread

    /** On the Swing event thread: ask what to roll for, then talk to the server on the network thread. */
    private void roll() {
        if (seat == null && !join()) return;
        String purpose = JOptionPane.showInputDialog(GameModule.getGameModule().getPlayerWindow(), "What is this roll for?", "Arbiter roll", JOptionPane.QUESTION_MESSAGE);
        if (purpose == null || purpose.isBlank()) return;
        String payload;
        try {
            payload = "{\"dice\":" + Canonical.write(dice) + ",\"purpose\":" + Canonical.write(purpose.strip()) + "}";
        } catch (Canonical.CanonicalException e) {
            GameModule.getGameModule().getChatter().show(TextLine.escape("✗ Arbiter: " + e.getMessage()));
            return;
        }
        String what = commandType + " " + dice;
        Seat s = seat;
        getLaunchButton().setEnabled(false);
        network.execute(() -> {
            List<String> lines = new ArrayList<>();
            String failure = s.caughtUp ? null : catchUp(s, lines); // the join did not reach the server: try again first
            RollSession.Outcome outcome = s.session.send(commandType, payload, what);
            String joinFailure = failure;
            SwingUtilities.invokeLater(() -> {
                lines.forEach(this::sendLine);
                if (joinFailure != null) GameModule.getGameModule().getChatter().show(joinFailure);
                publish(outcome);
                if (outcome.awaitingReveal) awaitReveal(s);
                else getLaunchButton().setEnabled(true);
            });
        });
    }

    /**
     * On the Swing event thread, after a beacon game's roll was accepted (its pending line and the
     * sender's check are in the log and chat): waits for the reveal on the network thread, then
     * posts its line. The button stays disabled meanwhile (a few seconds on quicknet).
     */
    private void awaitReveal(Seat s) {
        network.execute(() -> {
            RollSession.Outcome revealed = s.session.awaitReveal();
            SwingUtilities.invokeLater(() -> {
                getLaunchButton().setEnabled(true);
                publish(revealed);
            });
        });
    }

    /**
     * On the Swing event thread: asks for the game id and this player's token; then, on the
     * network thread, fetches GET /keys and the game's history, which go to the log first, so
     * that the log holds the server's key log and the chain from #1.
     */
    private boolean join() {
        String gameId = JOptionPane.showInputDialog(GameModule.getGameModule().getPlayerWindow(), "Arbiter game id:");
        if (gameId == null || gameId.isBlank()) return false;
        String token = JOptionPane.showInputDialog(GameModule.getGameModule().getPlayerWindow(), "Your Arbiter token (kept in memory, never logged):");
        if (token == null || token.isBlank()) return false;
        Seat s;
        try {
            s = new Seat(new RollSession(new ArbiterClient(serverUrl).timeouts(5_000, 15_000).retries(3, 10, 500), gameId.strip(), token.strip()), gameId.strip());
        } catch (IllegalArgumentException e) {
            GameModule.getGameModule().getChatter().show(TextLine.escape("✗ Arbiter: " + e.getMessage()));
            return false;
        }
        seat = s;
        network.execute(() -> {
            List<String> lines = new ArrayList<>();
            String failure = catchUp(s, lines);
            SwingUtilities.invokeLater(() -> {
                lines.forEach(this::sendLine);
                if (failure != null) GameModule.getGameModule().getChatter().show(failure);
            });
        });
        return true;
    }

    /** On the network thread: the keys line and the commits this log has not shown yet; null, or the chat line saying why not. */
    private String catchUp(Seat s, List<String> lines) {
        ModuleLog log = moduleLog;
        Receipt last = log == null ? null : log.verifier().last(s.gameId);
        try {
            lines.add(s.session.keysLine());
            lines.addAll(s.session.history(last == null ? 0 : last.seq));
            s.caughtUp = true;
            return null;
        } catch (ArbiterClient.ArbiterException e) {
            lines.clear();
            return TextLine.escape(e instanceof ArbiterClient.Unavailable
                    ? "✗ Arbiter server unreachable (" + e.getMessage() + "): cannot read the game's keys and history"
                    : "✗ Arbiter: cannot read the game's keys and history: " + e.status + " " + e.code + " — " + e.getMessage());
        }
    }

    /** On the Swing event thread: lines go to the log (checked and shown on every client); a failure is said in chat to everyone. */
    private void publish(RollSession.Outcome outcome) {
        outcome.logLines.forEach(this::sendLine);
        outcome.chatLines.forEach(GameModule.getGameModule().getChatter()::send); // the sender's check of a beacon roll, a late reveal
        if (!outcome.ok()) GameModule.getGameModule().getChatter().send(outcome.failureChatLine); // shows it, and sends and logs it
    }

    private void sendLine(String line) {
        Command c = new ArbiterLogCommand(line, moduleLog);
        c.execute(); // checks and shows it here
        GameModule.getGameModule().sendAndLog(c); // and on every other client, and in the log for replays
    }

    @Override
    public String[] getAttributeNames() {
        return concat(super.getAttributeNames(), SERVER_URL, PINNED, KEYS_JSON, DICE, COMMAND_TYPE);
    }

    @Override
    public String[] getAttributeDescriptions() {
        return concat(super.getAttributeDescriptions(), "Arbiter server URL", "Pinned key fingerprints (ed25519:…)", "Server keys (JSON of GET /keys)", "Dice (e.g. 2d6, 3d6+1)", "Command type");
    }

    @Override
    public Class<?>[] getAttributeTypes() {
        Class<?>[] base = super.getAttributeTypes();
        Class<?>[] out = Arrays.copyOf(base, base.length + 5);
        Arrays.fill(out, base.length, out.length, String.class);
        return out;
    }

    @Override
    public void setAttribute(String key, Object value) {
        String v = value == null ? "" : value.toString();
        if (SERVER_URL.equals(key)) serverUrl = v.strip();
        else if (PINNED.equals(key)) pinned = v.strip();
        else if (KEYS_JSON.equals(key)) keysJson = v.strip();
        else if (DICE.equals(key)) dice = v.strip();
        else if (COMMAND_TYPE.equals(key)) commandType = v.strip();
        else super.setAttribute(key, value);
    }

    @Override
    public String getAttributeValueString(String key) {
        if (SERVER_URL.equals(key)) return serverUrl;
        if (PINNED.equals(key)) return pinned;
        if (KEYS_JSON.equals(key)) return keysJson;
        if (DICE.equals(key)) return dice;
        if (COMMAND_TYPE.equals(key)) return commandType;
        return super.getAttributeValueString(key);
    }

    @Override
    public Class<?>[] getAllowableConfigureComponents() {
        return new Class<?>[0];
    }

    @Override
    public HelpFile getHelpFile() {
        return null;
    }

    private static String[] concat(String[] base, String... more) {
        String[] out = Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, out, base.length, more.length);
        return out;
    }
}
