package org.arbiter.kit.vassal;

import VASSAL.build.AbstractToolbarItem;
import VASSAL.build.Buildable;
import VASSAL.build.GameModule;
import VASSAL.build.module.Chatter;
import VASSAL.build.module.documentation.HelpFile;
import VASSAL.command.Command;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.swing.JOptionPane;
import javax.swing.SwingUtilities;
import org.arbiter.kit.ArbiterClient;
import org.arbiter.kit.Canonical;
import org.arbiter.kit.Json;
import org.arbiter.kit.RollSession;
import org.arbiter.kit.TrustedKeys;
import org.arbiter.kit.Verifier;

/**
 * A SKETCH of a toolbar button that rolls through Arbiter (see docs/vassal.md). Everything it
 * relies on — the HTTP client, the receipt checks, the log line codec, the pending-roll rule —
 * is in the plain-JDK kit (org.arbiter.kit), which `npm run test:java` tests; this class only
 * wires it into VASSAL and is compiled only when VASSAL_JAR is given.
 *
 * Attributes set in the module editor: the server URL, the pinned fingerprints (comma or space
 * separated), the server's published keys (the JSON of GET /keys, so that replays check
 * offline), the dice expression, and the command type (Roll for the dice ruleset).
 */
public class ArbiterDiceButton extends AbstractToolbarItem {
    public static final String SERVER_URL = "arbiterUrl";
    public static final String PINNED = "arbiterPinnedFingerprints";
    public static final String KEYS_JSON = "arbiterKeys";
    public static final String DICE = "arbiterDice";
    public static final String COMMAND_TYPE = "arbiterCommandType";

    /** One verifier per module: every Arbiter line of the log goes through it, in log order. */
    private static volatile Verifier verifier;
    private static ArbiterCommandEncoder encoder;

    private String serverUrl = "https://arbiter.example.org";
    private String pinned = "";
    private String keysJson = "";
    private String dice = "2d6";
    private String commandType = "Roll";
    private RollSession session; // per player, per game; the token is kept in memory only, never logged

    public ArbiterDiceButton() {
        setLaunchButton(makeLaunchButton("Roll through Arbiter", "Arbiter roll", "", e -> roll()));
        setAttribute(NAME, "Arbiter roll");
    }

    public static String getConfigureTypeName() {
        return "Arbiter dice button";
    }

    @Override
    public void addTo(Buildable parent) {
        super.addTo(parent);
        synchronized (ArbiterDiceButton.class) {
            if (verifier == null) {
                verifier = new Verifier(trustedKeys());
                encoder = new ArbiterCommandEncoder(verifier);
                GameModule.getGameModule().addCommandEncoder(encoder);
            }
        }
    }

    @Override
    public void removeFrom(Buildable parent) {
        super.removeFrom(parent);
        synchronized (ArbiterDiceButton.class) {
            if (encoder != null) GameModule.getGameModule().removeCommandEncoder(encoder);
            encoder = null;
            verifier = null;
        }
    }

    private TrustedKeys trustedKeys() {
        List<String> pins = new ArrayList<>();
        for (String fp : pinned.split("[,\\s]+")) if (!fp.isEmpty()) pins.add(fp);
        TrustedKeys keys = new TrustedKeys(pins);
        if (!keysJson.isEmpty()) {
            try {
                keys.learnAll(Json.parseObject(keysJson));
            } catch (Json.JsonException e) {
                GameModule.getGameModule().warn("Arbiter: the keys attribute is not JSON: " + e.getMessage());
            }
        }
        return keys;
    }

    /** On the UI thread: ask what to roll for, then talk to the server on another thread. */
    private void roll() {
        if (session == null && !join()) return;
        String purpose = JOptionPane.showInputDialog(GameModule.getGameModule().getPlayerWindow(), "What is this roll for?", "Arbiter roll", JOptionPane.QUESTION_MESSAGE);
        if (purpose == null || purpose.isBlank()) return;
        String payload;
        try {
            payload = "{\"dice\":" + Canonical.write(dice) + ",\"purpose\":" + Canonical.write(purpose.strip()) + "}";
        } catch (Canonical.CanonicalException e) {
            GameModule.getGameModule().getChatter().show("✗ Arbiter: " + e.getMessage());
            return;
        }
        String what = commandType + " " + dice;
        getLaunchButton().setEnabled(false);
        Thread worker = new Thread(() -> {
            RollSession.Outcome outcome = session.send(commandType, payload, what);
            SwingUtilities.invokeLater(() -> {
                getLaunchButton().setEnabled(true);
                publish(outcome);
            });
        }, "arbiter-roll");
        worker.setDaemon(true);
        worker.start();
    }

    /** Asks for the game id and this player's token, and posts the game's history so the log holds the chain from #1. */
    private boolean join() {
        String gameId = JOptionPane.showInputDialog(GameModule.getGameModule().getPlayerWindow(), "Arbiter game id:");
        if (gameId == null || gameId.isBlank()) return false;
        String token = JOptionPane.showInputDialog(GameModule.getGameModule().getPlayerWindow(), "Your Arbiter token (kept in memory, never logged):");
        if (token == null || token.isBlank()) return false;
        session = new RollSession(new ArbiterClient(serverUrl).timeouts(5_000, 15_000).retries(3, 10, 500), gameId.strip(), token.strip());
        RollSession joining = session;
        Thread worker = new Thread(() -> {
            try {
                long after = verifier.last(gameId.strip()) == null ? 0 : verifier.last(gameId.strip()).seq;
                List<String> lines = joining.history(after);
                SwingUtilities.invokeLater(() -> lines.forEach(this::sendLine));
            } catch (ArbiterClient.ArbiterException e) {
                SwingUtilities.invokeLater(() -> GameModule.getGameModule().getChatter().show("✗ Arbiter: cannot read the game's history: " + e.getMessage()));
            }
        }, "arbiter-join");
        worker.setDaemon(true);
        worker.start();
        return true;
    }

    /** On the UI thread: receipts go to the log (checked and shown on every client); a failure is said in chat to everyone. */
    private void publish(RollSession.Outcome outcome) {
        outcome.logLines.forEach(this::sendLine);
        if (!outcome.ok()) {
            Command say = new Chatter.DisplayText(GameModule.getGameModule().getChatter(), outcome.failureChatLine);
            say.execute();
            GameModule.getGameModule().sendAndLog(say);
        }
    }

    private void sendLine(String line) {
        Command c = new ArbiterReceiptCommand(line, verifier);
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
