package org.arbiter.kit.vassal;

import VASSAL.command.Command;
import org.arbiter.kit.ModuleLog;

/**
 * One line of the Arbiter kit in VASSAL's game log: a receipt ({@code ARB<TAB>…}), the
 * server's keys and key log ({@code ARBKEYS<TAB>…}), or, in a saved game or at the start of a
 * log file, everything read before ({@code ARBSTATE<TAB>…}, from
 * {@link ArbiterButton#getRestoreCommand}). Executing it — on the roller's client, on every
 * opponent's client when it arrives, and on every replay — reads it with the module's
 * {@link ModuleLog}: a receipt is checked (hash, signature by a pinned key or one the pins
 * reach through the key log, seq and prevHash against the receipts this log showed before), a
 * keys line is learnt, and the result is shown in chat.
 */
public final class ArbiterLogCommand extends Command {
    private final String line;
    private final ModuleLog log;

    public ArbiterLogCommand(String line, ModuleLog log) {
        this.line = line;
        this.log = log;
    }

    public String line() {
        return line;
    }

    @Override
    protected void executeCommand() {
        if (ModuleLog.isStateLine(line)) {
            for (String chat : log.readState(line)) VassalChat.show(chat);
        } else {
            VassalChat.show(log.read(line));
        }
    }

    @Override
    protected Command myUndoCommand() {
        return null; // a roll cannot be undone: undo in VASSAL never removes a receipt
    }
}
