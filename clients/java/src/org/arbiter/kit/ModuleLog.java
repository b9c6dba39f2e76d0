package org.arbiter.kit;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What one running module has read of the game log: every kit line (keys lines and receipt
 * lines) in order, checked by one {@link Verifier} over the module's {@link TrustedKeys}.
 * A host (the VASSAL adapter) feeds it every kit line it sees — its own, the opponent's, a
 * replay's — and shows the chat line {@link #read} returns.
 *
 * It can also write everything it read as one state line ({@code ARBSTATE<TAB>line line …}),
 * which a host puts in a saved game or at the start of a log file, and a player who joins later
 * receives: {@link #readState} checks every line of it again and answers with one summary
 * line, plus the loud line of every one that fails.
 */
public final class ModuleLog {
    public static final String STATE_PREFIX = "ARBSTATE\t";
    private static final Pattern KIT_LINE = Pattern.compile("^ARB(KEYS)?\t[A-Za-z0-9_-]+$");

    private final TrustedKeys keys;
    private Verifier verifier;
    private final Set<String> lines = new LinkedHashSet<>();

    public ModuleLog(TrustedKeys keys) {
        this.keys = keys;
        this.verifier = new Verifier(keys);
    }

    public synchronized Verifier verifier() {
        return verifier;
    }

    public TrustedKeys keys() {
        return keys;
    }

    /** Reads one kit line from the log: a keys line is learnt, a receipt line checked. Returns the chat line to show. */
    public synchronized String read(String line) {
        if (line != null && KIT_LINE.matcher(line).matches()) lines.add(line);
        return LogLine.read(line, verifier);
    }

    /** The kit lines read so far, in log order, each once. */
    public synchronized List<String> lines() {
        return new ArrayList<>(lines);
    }

    /** Forgets the game (a new game, or one being loaded): the pins and keys learnt stay, the receipts seen go. */
    public synchronized void reset() {
        verifier = new Verifier(keys);
        lines.clear();
    }

    /** Everything read so far as one line, or null when nothing was read. */
    public synchronized String stateLine() {
        return lines.isEmpty() ? null : STATE_PREFIX + String.join(" ", lines);
    }

    public static boolean isStateLine(String line) {
        return line != null && line.startsWith(STATE_PREFIX);
    }

    /**
     * Reads a state line: every line in it, in order, as {@link #read} would, quietly. Returns
     * the chat lines to show: one summary, then the line of each that did not check.
     */
    public synchronized List<String> readState(String stateLine) {
        List<String> out = new ArrayList<>();
        if (!isStateLine(stateLine) || stateLine.length() > 64 * LogLine.MAX_LINE) {
            out.add(TextLine.escape("✗✗ ARBITER CHECK FAILED ✗✗ unreadable Arbiter state in the saved game — do not accept its rolls"));
            return out;
        }
        String body = stateLine.substring(STATE_PREFIX.length());
        String[] parts = body.isEmpty() ? new String[0] : body.split(" ", -1);
        int receipts = 0, keyLines = 0;
        List<String> failures = new ArrayList<>();
        for (String part : parts) {
            boolean keysLine = LogLine.isKeysLine(part);
            if (!KIT_LINE.matcher(part).matches()) {
                failures.add(TextLine.escape("✗✗ ARBITER CHECK FAILED ✗✗ unreadable Arbiter line in the saved game — do not accept this roll"));
                continue;
            }
            String chat = read(part);
            if (keysLine) keyLines++;
            else receipts++;
            if (!chat.startsWith("✓")) failures.add(chat);
        }
        String what = receipts + " receipt" + (receipts == 1 ? "" : "s") + (keyLines > 0 ? " and " + keyLines + " keys line" + (keyLines == 1 ? "" : "s") : "");
        out.add(TextLine.escape(failures.isEmpty()
                ? "✓ Arbiter: restored " + what + " of this game's log; every one checks"
                : "✗✗ ARBITER ✗✗ restored " + what + " of this game's log; " + failures.size() + " not ✓:"));
        out.addAll(failures);
        return out;
    }
}
