package org.arbiter.kit.vassal;

import VASSAL.build.GameModule;
import VASSAL.command.Command;
import org.arbiter.kit.LogLine;
import org.arbiter.kit.Verifier;

/**
 * One Arbiter receipt in the game log. Executing it — on the roller's client, on every
 * opponent's client when it arrives, and on every replay of the log — decodes the line, checks
 * it with the module's {@link Verifier} (hash, signature by a pinned key, seq and prevHash
 * against the receipts this log showed before) and prints the result in chat.
 */
public final class ArbiterReceiptCommand extends Command {
    private final String line;
    private final Verifier verifier;

    public ArbiterReceiptCommand(String line, Verifier verifier) {
        this.line = line;
        this.verifier = verifier;
    }

    public String line() {
        return line;
    }

    @Override
    protected void executeCommand() {
        Verifier.Check check = LogLine.check(line, verifier);
        GameModule.getGameModule().getChatter().show(LogLine.chatLine(check));
    }

    @Override
    protected Command myUndoCommand() {
        return null; // a roll cannot be undone: undo in VASSAL never removes a receipt
    }
}
