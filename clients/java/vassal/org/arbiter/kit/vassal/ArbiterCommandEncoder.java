package org.arbiter.kit.vassal;

import VASSAL.command.Command;
import VASSAL.command.CommandEncoder;
import org.arbiter.kit.LogLine;
import org.arbiter.kit.ModuleLog;

/**
 * Puts the kit's lines into VASSAL's command stream and log, one command each (receipts
 * {@code ARB<TAB>…}, keys {@code ARBKEYS<TAB>…}, saved state {@code ARBSTATE<TAB>…}; see
 * {@link LogLine} and {@link ModuleLog}), and turns such lines back into
 * {@link ArbiterLogCommand}s on every client and on replay. GameModule asks every registered
 * encoder in turn: lines of other encoders are left alone (null).
 */
public final class ArbiterCommandEncoder implements CommandEncoder {
    private final ModuleLog log;

    public ArbiterCommandEncoder(ModuleLog log) {
        this.log = log;
    }

    @Override
    public Command decode(String command) {
        if (!LogLine.isKitLine(command) && !ModuleLog.isStateLine(command)) return null;
        return new ArbiterLogCommand(command, log); // checked when executed; a bad line prints a loud failure
    }

    @Override
    public String encode(Command c) {
        return c instanceof ArbiterLogCommand ? ((ArbiterLogCommand) c).line() : null;
    }
}
