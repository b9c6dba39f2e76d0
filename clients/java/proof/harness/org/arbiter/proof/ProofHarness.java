package org.arbiter.proof;

import VASSAL.build.GameModule;
import VASSAL.build.module.BasicLogger;
import VASSAL.i18n.Resources;
import VASSAL.launch.Player;
import VASSAL.launch.PlayerWindow;
import java.awt.AWTException;
import java.awt.Component;
import java.awt.Container;
import java.awt.Dialog;
import java.awt.EventQueue;
import java.awt.FileDialog;
import java.awt.Rectangle;
import java.awt.Robot;
import java.awt.Window;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import javax.imageio.ImageIO;
import javax.swing.AbstractButton;
import javax.swing.JButton;
import javax.swing.JDialog;
import javax.swing.JLabel;
import javax.swing.JMenu;
import javax.swing.JMenuBar;
import javax.swing.JMenuItem;
import javax.swing.JOptionPane;
import javax.swing.JTextField;
import javax.swing.JTextPane;
import javax.swing.text.BadLocationException;

/**
 * Drives a real VASSAL Player in this JVM, as a player would: the module is loaded by VASSAL's own
 * Player.main, the Arbiter extension by VASSAL's ExtensionsLoader (from the module's _ext folder);
 * the harness clicks VASSAL's menu items (New Game, Begin/End Logfile), the Arbiter button and the
 * log's Step button, types into the dialogs they open, and reads the chat as it is shown.
 *
 * Usage: ProofHarness SCENARIO, with -Dproof.* properties (see clients/java/proof/run.mjs):
 *   play    New Game, Begin Logfile, press "Arbiter roll" for each purpose in proof.purposes
 *           (a roll sent straight to the server between two of them when proof.withhold is set),
 *           End Logfile into proof.vlog.
 *   replay  load proof.vlog in a fresh Player and step through it to its end.
 *   combat  New Game, Begin Logfile, press "Arbiter command" once (its template: a France 1944
 *           ResolveCombat of the module's $CombatId$), End Logfile into proof.vlog.
 *   down    press "Arbiter roll" against a server that is down.
 * Each check prints "PASS name" or "FAIL name: why"; the exit code is the number of failures (max 100).
 */
public final class ProofHarness {
    private static final long WAIT_MS = 60_000;
    private static final List<String> failures = new ArrayList<>();
    private static int passed;

    private final String scenario;
    private final Deque<String> purposes = new ArrayDeque<>();
    private final List<String> dialogsSeen = new ArrayList<>();
    private final File vlog;

    private ProofHarness(String scenario) {
        this.scenario = scenario;
        for (String p : prop("proof.purposes", "").split("\\|")) if (!p.isBlank()) purposes.add(p);
        this.vlog = new File(prop("proof.vlog", "proof.vlog"));
    }

    private static String prop(String name, String fallback) {
        String v = System.getProperty(name);
        return v == null ? fallback : v;
    }

    static void check(String name, boolean ok, String why) {
        if (ok) {
            passed++;
            System.out.println("PASS " + name);
        } else {
            failures.add(name);
            System.out.println("FAIL " + name + ": " + why);
        }
    }

    public static void main(String[] args) throws Exception {
        ProofHarness h = new ProofHarness(args.length > 0 ? args[0] : "");
        int code;
        try {
            h.run();
        } catch (Throwable t) {
            t.printStackTrace(System.out);
            check(h.scenario + " ran to its end", false, t.toString());
        } finally {
            if (!h.dialogsSeen.isEmpty()) System.out.println("dialogs answered: " + h.dialogsSeen);
            System.out.println("chat (" + h.scenario + "):");
            for (String line : chatLines()) System.out.println("  | " + line);
            if (!failures.isEmpty()) printErrorLog();
            System.out.println(passed + " passed, " + failures.size() + " failed");
            code = Math.min(failures.size(), 100);
        }
        Runtime.getRuntime().halt(code); // VASSAL's windows and threads would keep the JVM alive
    }

    /** VASSAL sends its own errors (stderr included) to its error log in the conf folder: shown when a check failed. */
    private static void printErrorLog() {
        try (java.util.stream.Stream<Path> files = Files.list(VASSAL.Info.getConfDir().toPath())) {
            for (Path log : files.filter(f -> f.getFileName().toString().startsWith("errorLog")).toList()) {
                List<String> lines = Files.readAllLines(log);
                System.out.println("VASSAL's " + log.getFileName() + " (last 60 lines):");
                lines.subList(Math.max(0, lines.size() - 60), lines.size()).forEach(l -> System.out.println("  " + l));
            }
        } catch (IOException | RuntimeException e) {
            System.out.println("(no VASSAL error log: " + e + ")");
        }
    }

    private void run() throws Exception {
        startDialogAnswerer();
        List<String> launch = new ArrayList<>();
        launch.add(prop("proof.module", ""));
        if (scenario.equals("replay")) launch.add(vlog.getPath());
        Player.main(launch.toArray(new String[0])); // returns once the module is built and its window shown
        waitFor("the Player window", () -> onEdt(() -> playerWindow() != null));
        switch (scenario) {
            case "play" -> play();
            case "replay" -> replay();
            case "down" -> down();
            case "combat" -> combat();
            default -> throw new IllegalArgumentException("unknown scenario " + scenario);
        }
    }

    // ---- the scenarios -------------------------------------------------------------------------

    private void play() throws Exception {
        AbstractButton roll = waitFor("the Arbiter roll button added by the extension", () -> onEdt(() -> findButton("Arbiter roll")));
        check("the extension's button is in the module's toolbar", roll != null, "not found");
        clickMenu(Resources.getString("GameState.new_game"));
        waitFor("a game in progress", () -> onEdt(() -> GameModule.getGameModule().getGameState().isGameStarted()));
        Files.deleteIfExists(vlog.toPath());
        clickMenu(Resources.getString("BasicLogger.begin_logfile"));
        waitFor("logging to " + vlog, () -> onEdt(() -> GameModule.getGameModule().getBasicLogger().isLogging()));
        int rolls = purposes.size();
        int before = verifiedRolls(chatLines());
        for (int i = 0; i < rolls; i++) {
            if (i == 1 && !prop("proof.withhold", "").isEmpty()) withholdOneRoll();
            int shown = chatLines().size();
            onEdt(() -> { roll.doClick(); return null; });
            int target = i + 1;
            waitFor("the result of roll " + target + " in chat", () -> chatLines().size() > shown && onEdt(roll::isEnabled)
                    && chatLines().stream().skip(shown).anyMatch(l -> l.startsWith("✓ #") || l.startsWith("⚠") || l.startsWith("✗")));
        }
        List<String> chat = chatLines();
        boolean withheld = !prop("proof.withhold", "").isEmpty();
        if (withheld) {
            check("the roll after a withheld one shows a gap on the roller's screen", chat.stream().anyMatch(l -> l.startsWith("⚠ ARBITER GAP ⚠")), "no gap line");
        } else {
            check(rolls + " rolls, each in chat with its verified marker ✓", verifiedRolls(chat) - before == rolls, "verified lines: " + verifiedRolls(chat));
            check("no failure or gap line in chat", chat.stream().noneMatch(l -> l.startsWith("✗") || l.startsWith("⚠")), "see chat");
        }
        screenshot(prop("proof.shot", ""));
        clickMenu(Resources.getString("BasicLogger.end_logfile"));
        try {
            waitFor("the log file written", () -> vlog.isFile() && vlog.length() > 0 && onEdt(() -> !GameModule.getGameModule().getBasicLogger().isLogging()));
        } finally {
            System.out.println("after End Logfile: " + vlog + " " + (vlog.isFile() ? vlog.length() + " bytes" : "absent") + ", logging " + onEdt(() -> GameModule.getGameModule().getBasicLogger().isLogging()));
        }
        check("VASSAL's logger saved the game log " + vlog.getName(), vlog.isFile(), "missing");
        String token = prop("proof.token", "");
        String text = VlogFile.read(vlog.toPath());
        int receiptLines = text.split("ARB\t", -1).length - 1;
        check("the log holds a receipt line for each roll (" + receiptLines + " ARB lines)", receiptLines >= rolls, "ARB lines: " + receiptLines);
        check("the token is neither in chat nor in the log", !token.isEmpty() && !text.contains(token) && chat.stream().noneMatch(l -> l.contains(token)), "token leaked");
    }

    private void replay() throws Exception {
        AbstractButton step = waitFor("the log's Step button enabled", () -> onEdt(() -> {
            AbstractButton b = findStepButton();
            return b != null && b.isEnabled() ? b : null;
        }));
        int steps = 0;
        while (steps < 500 && onEdt(step::isEnabled)) {
            onEdt(() -> { step.doClick(); return null; });
            steps++;
        }
        final int stepped = steps;
        check("stepped through the whole log (" + stepped + " steps)", stepped > 0 && stepped < 500, "steps: " + stepped);
        String expect = prop("proof.expect", "verified");
        int rolls = Integer.parseInt(prop("proof.rolls", "0"));
        List<String> chat = waitFor("the replayed lines in chat", () -> {
            List<String> c = chatLines();
            return c.stream().anyMatch(l -> l.startsWith("✓ #") || l.startsWith("⚠") || l.startsWith("✗")) ? c : null;
        });
        switch (expect) {
            case "verified" -> {
                int combats = Integer.parseInt(prop("proof.combats", "0"));
                check("the second Player shows every receipt of the log verified (" + rolls + " rolls, " + combats + " combats ✓)",
                        verifiedRolls(chat) == rolls && verifiedCombats(chat) == combats, "verified rolls: " + verifiedRolls(chat) + ", combats: " + verifiedCombats(chat));
                check("the second Player shows no failure and no gap", chat.stream().noneMatch(l -> l.startsWith("✗") || l.startsWith("⚠")), "see chat");
            }
            case "gap" -> check("the second Player shows the gap where a roll was withheld", chat.stream().anyMatch(l -> l.startsWith("⚠ ARBITER GAP ⚠")), "no gap line");
            case "refused" -> check("the second Player refuses the altered receipt", chat.stream().anyMatch(l -> l.startsWith("✗✗ ARBITER CHECK FAILED ✗✗")), "no refusal line");
            default -> throw new IllegalArgumentException("proof.expect " + expect);
        }
        screenshot(prop("proof.shot", ""));
    }

    private void combat() throws Exception {
        AbstractButton button = waitFor("the Arbiter command button added by the extension", () -> onEdt(() -> findButton("Arbiter command")));
        clickMenu(Resources.getString("GameState.new_game"));
        waitFor("a game in progress", () -> onEdt(() -> GameModule.getGameModule().getGameState().isGameStarted()));
        Files.deleteIfExists(vlog.toPath());
        clickMenu(Resources.getString("BasicLogger.begin_logfile"));
        waitFor("logging to " + vlog, () -> onEdt(() -> GameModule.getGameModule().getBasicLogger().isLogging()));
        onEdt(() -> { button.doClick(); return null; });
        List<String> chat = waitFor("the combat's result in chat", () -> {
            List<String> c = chatLines();
            return onEdt(button::isEnabled) && c.stream().anyMatch(l -> l.contains("ResolveCombat") && (l.startsWith("✓ #") || l.startsWith("✗") || l.startsWith("⚠"))) ? c : null;
        });
        check("a France 1944 ResolveCombat of c1 ($CombatId$) in chat with its verified marker ✓", verifiedCombats(chat) == 1, "verified combat lines: " + verifiedCombats(chat));
        check("no failure or gap line in chat", chat.stream().noneMatch(l -> l.startsWith("✗") || l.startsWith("⚠")), "see chat");
        screenshot(prop("proof.shot", ""));
        clickMenu(Resources.getString("BasicLogger.end_logfile"));
        waitFor("the log file written", () -> vlog.isFile() && vlog.length() > 0 && onEdt(() -> !GameModule.getGameModule().getBasicLogger().isLogging()));
        check("VASSAL's logger saved the game log " + vlog.getName(), vlog.isFile(), "missing");
        String token = prop("proof.token", "");
        String text = VlogFile.read(vlog.toPath());
        check("the token is neither in chat nor in the log", !token.isEmpty() && !text.contains(token) && chat.stream().noneMatch(l -> l.contains(token)), "token leaked");
    }

    private static int verifiedCombats(List<String> chat) {
        return (int) chat.stream().filter(l -> l.startsWith("✓ #") && l.contains(" ResolveCombat ")).count();
    }

    private void down() throws Exception {
        AbstractButton roll = waitFor("the Arbiter roll button", () -> onEdt(() -> findButton("Arbiter roll")));
        clickMenu(Resources.getString("GameState.new_game"));
        waitFor("a game in progress", () -> onEdt(() -> GameModule.getGameModule().getGameState().isGameStarted()));
        onEdt(() -> { roll.doClick(); return null; });
        List<String> chat = waitFor("the unreachable line in chat", () -> {
            List<String> c = chatLines();
            return onEdt(roll::isEnabled) && c.stream().anyMatch(l -> l.startsWith("✗ Arbiter server unreachable") && l.contains("no result")) ? c : null;
        });
        check("a server that is down: chat says it is unreachable", chat.stream().anyMatch(l -> l.startsWith("✗ Arbiter server unreachable")), "no unreachable line");
        check("a server that is down: nothing is rolled (no receipt, no dice)", verifiedRolls(chat) == 0 && chat.stream().noneMatch(l -> l.startsWith("✓ #")), "a roll appeared");
        screenshot(prop("proof.shot", ""));
    }

    /** A roll sent straight to the server with the same token, outside VASSAL: the log never shows it. */
    private void withholdOneRoll() throws IOException, InterruptedException {
        String body = "{\"commandId\":\"" + UUID.randomUUID() + "\",\"type\":\"Roll\",\"payload\":{\"dice\":\"2d6\",\"purpose\":\"rolled outside the log\"}}";
        HttpRequest request = HttpRequest.newBuilder(URI.create(prop("proof.withhold", "") + "/games/" + prop("proof.game", "") + "/commands"))
                .timeout(Duration.ofSeconds(15))
                .header("Authorization", "Bearer " + prop("proof.token", ""))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<String> answer = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(request, HttpResponse.BodyHandlers.ofString());
        check("a roll sent outside the log is accepted by the server (" + answer.statusCode() + ")", answer.statusCode() == 201, answer.body());
    }

    // ---- reading and clicking VASSAL's window -------------------------------------------------

    private static int verifiedRolls(List<String> chat) {
        return (int) chat.stream().filter(l -> l.startsWith("✓ #") && l.contains(" Roll ")).count();
    }

    /** The chat as shown, one line a message. */
    static List<String> chatLines() {
        try {
            return onEdt(() -> {
                List<String> out = new ArrayList<>();
                GameModule gm = GameModule.getGameModule();
                if (gm == null || gm.getChatter() == null) return out;
                for (Component c : descendants(gm.getChatter())) {
                    if (c instanceof JTextPane pane) {
                        try {
                            for (String line : pane.getDocument().getText(0, pane.getDocument().getLength()).split("\n")) {
                                String t = line.strip();
                                if (!t.isEmpty()) out.add(t.startsWith("- ") ? t.substring(2) : t);
                            }
                        } catch (BadLocationException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                }
                return out;
            });
        } catch (Exception e) {
            return List.of("(chat unreadable: " + e + ")");
        }
    }

    private static PlayerWindow playerWindow() {
        GameModule gm = GameModule.getGameModule();
        if (gm == null) return null;
        PlayerWindow w = gm.getPlayerWindow();
        return w != null && w.isShowing() ? w : null;
    }

    private static AbstractButton findButton(String text) {
        PlayerWindow w = playerWindow();
        if (w == null) return null;
        for (Component c : descendants(w)) if (c instanceof AbstractButton b && !(b instanceof JMenuItem) && text.equals(b.getText()) && b.isShowing()) return b;
        return null;
    }

    private static AbstractButton findStepButton() {
        PlayerWindow w = playerWindow();
        if (w == null) return null;
        for (Component c : descendants(w)) if (c instanceof AbstractButton b && b.getAction() instanceof BasicLogger.StepAction) return b;
        return null;
    }

    /** Clicks a menu item of the Player window's menu bar by its text, as a player would. */
    private static void clickMenu(String text) throws Exception {
        JMenuItem item = waitFor("the menu item " + text, () -> onEdt(() -> {
            PlayerWindow w = playerWindow();
            JMenuBar bar = w == null ? null : w.getJMenuBar();
            if (bar == null) return null;
            for (int i = 0; i < bar.getMenuCount(); i++) {
                JMenuItem found = findItem(bar.getMenu(i), text);
                if (found != null && found.isEnabled()) return found;
            }
            return null;
        }));
        EventQueue.invokeLater(item::doClick); // later: it may open a modal dialog, which the answerer answers
    }

    private static JMenuItem findItem(JMenu menu, String text) {
        if (menu == null) return null;
        for (Component c : menu.getMenuComponents()) {
            if (c instanceof JMenu sub) {
                JMenuItem found = findItem(sub, text);
                if (found != null) return found;
            } else if (c instanceof JMenuItem item && text.equals(item.getText())) {
                return item;
            }
        }
        return null;
    }

    private static List<Component> descendants(Component root) {
        List<Component> out = new ArrayList<>();
        Deque<Component> todo = new ArrayDeque<>(List.of(root));
        while (!todo.isEmpty()) {
            Component c = todo.pop();
            out.add(c);
            if (c instanceof Container k) for (Component child : k.getComponents()) todo.add(child);
        }
        return out;
    }

    /**
     * Answers VASSAL's and the button's dialogs as the player would: the save dialog of Begin
     * Logfile gets proof.vlog, the button's questions get the game id, the token (or the link) and
     * the next purpose, and "start a new log file?" gets No. Every answer is typed into the dialog's
     * own text field and confirmed with its own OK button.
     */
    private void startDialogAnswerer() {
        Thread t = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(100);
                    EventQueue.invokeAndWait(this::answerDialogs);
                } catch (InterruptedException e) {
                    return;
                } catch (InvocationTargetException e) {
                    e.getCause().printStackTrace(System.out);
                }
            }
        }, "proof-dialog-answerer");
        t.setDaemon(true);
        t.start();
    }

    private void answerDialogs() {
        for (Window w : Window.getWindows()) {
            if (!w.isShowing() || !(w instanceof Dialog dialog)) continue;
            if (dialog instanceof FileDialog fd) {
                fd.setDirectory(vlog.getAbsoluteFile().getParent() + File.separator);
                fd.setFile(vlog.getName());
                dialogsSeen.add("file dialog → " + vlog.getName());
                fd.setVisible(false); // what OK does: show() returns with this file selected
                continue;
            }
            if (!(dialog instanceof JDialog jd)) continue;
            if (Resources.getString("BasicLogger.log_file_comments").equals(jd.getTitle())) { // Begin Logfile's comments
                for (Component c : descendants(jd.getContentPane())) if (c instanceof JTextField f) f.setText("Arbiter proof");
                dialogsSeen.add("log file comments → Arbiter proof");
                clickButton(jd.getContentPane(), Resources.getString("General.ok"));
                continue;
            }
            JOptionPane pane = null;
            for (Component c : descendants(jd.getContentPane())) if (c instanceof JOptionPane p) pane = p;
            if (pane == null) continue;
            String message = messageText(pane).toLowerCase(Locale.ROOT);
            JTextField field = null;
            for (Component c : descendants(pane)) if (c instanceof JTextField f && f.isShowing()) field = f;
            String answer = null;
            if (field != null) {
                if (message.contains("link")) answer = prop("proof.link", "");
                else if (message.contains("game id")) answer = prop("proof.game", "");
                else if (message.contains("token")) answer = prop("proof.token", "");
                else if (message.contains("for?") || message.contains("purpose")) answer = purposes.isEmpty() ? "a roll" : purposes.poll();
                if (answer == null) continue; // not ours: left for a person to see in the screenshot
                field.setText(answer);
                dialogsSeen.add('"' + message.strip() + "\" → " + (answer.equals(prop("proof.token", "")) ? "(the token)" : answer));
                clickButton(pane, Resources.getString(Resources.OK), "OK");
            } else {
                dialogsSeen.add('"' + message.strip() + "\" → No");
                clickButton(pane, Resources.getString(Resources.NO), "No");
            }
        }
    }

    private static String messageText(JOptionPane pane) {
        StringBuilder sb = new StringBuilder(String.valueOf(pane.getMessage()));
        for (Component c : descendants(pane)) if (c instanceof JLabel l && l.getText() != null) sb.append(' ').append(l.getText());
        return sb.toString();
    }

    private static void clickButton(Container in, String... texts) {
        for (Component c : descendants(in)) {
            if (c instanceof JButton b) for (String t : texts) if (t.equals(b.getText())) {
                b.doClick();
                return;
            }
        }
    }

    // ---- waiting, the event thread, screenshots -------------------------------------------------

    interface Probe<T> {
        T get() throws Exception;
    }

    /** Polls until the probe answers non-null (or true), at most WAIT_MS. */
    @SuppressWarnings("unchecked")
    static <T> T waitFor(String what, Probe<?> probe) throws Exception {
        long until = System.currentTimeMillis() + WAIT_MS;
        while (System.currentTimeMillis() < until) {
            Object v = probe.get();
            if (v != null && !Boolean.FALSE.equals(v)) return (T) v;
            Thread.sleep(100);
        }
        throw new IllegalStateException("timed out after " + WAIT_MS / 1000 + " s waiting for " + what);
    }

    static <T> T onEdt(Probe<T> probe) throws Exception {
        if (EventQueue.isDispatchThread()) return probe.get();
        AtomicReference<T> out = new AtomicReference<>();
        AtomicReference<Exception> err = new AtomicReference<>();
        EventQueue.invokeAndWait(() -> {
            try {
                out.set(probe.get());
            } catch (Exception e) {
                err.set(e);
            }
        });
        if (err.get() != null) throw err.get();
        return out.get();
    }

    /** The Player window as a player sees it, through java.awt.Robot; only when a path is given. */
    private static void screenshot(String path) throws Exception {
        if (path.isEmpty()) return;
        onEdt(() -> { // a size that shows the toolbar and a dozen chat lines (there is no window manager under Xvfb)
            PlayerWindow w = playerWindow();
            w.setBounds(0, 0, 1100, 380);
            w.validate();
            return null;
        });
        Thread.sleep(800); // let the resized window and the last chat line paint
        Rectangle bounds = onEdt(() -> playerWindow().getBounds());
        BufferedImage image;
        try {
            image = new Robot().createScreenCapture(bounds);
        } catch (AWTException e) {
            throw new IOException("no screen to capture", e);
        }
        Path file = Path.of(path);
        Files.createDirectories(file.toAbsolutePath().getParent());
        ImageIO.write(image, "png", file.toFile());
        System.out.println("screenshot " + file);
    }
}
