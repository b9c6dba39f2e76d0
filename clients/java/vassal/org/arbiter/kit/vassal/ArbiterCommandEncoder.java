package org.arbiter.kit.vassal;

import VASSAL.command.Command;
import VASSAL.command.CommandEncoder;
import org.arbiter.kit.LogLine;
import org.arbiter.kit.Verifier;

/**
 * Puts Arbiter receipts into VASSAL's command stream and log as one line each,
 * {@code ARB<TAB><base64url of the canonical commit>} ({@link LogLine}), and turns such lines
 * back into {@link ArbiterReceiptCommand}s on every client and on replay. Lines of other
 * encoders are left alone (null).
 */
public final class ArbiterCommandEncoder implements CommandEncoder {
    private final Verifier verifier;

    public ArbiterCommandEncoder(Verifier verifier) {
        this.verifier = verifier;
    }

    @Override
    public Command decode(String command) {
        if (!LogLine.isArbiterLine(command)) return null;
        return new ArbiterReceiptCommand(command, verifier); // checked when executed; a bad line prints a loud failure
    }

    @Override
    public String encode(Command c) {
        return c instanceof ArbiterReceiptCommand ? ((ArbiterReceiptCommand) c).line() : null;
    }
}
