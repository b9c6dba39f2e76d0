import { EXIT } from '../domain/verify/verifierReport';
import { exportCommand } from './exportCommand';
import { escapedIo, processIo, type Io } from './io';
import { UsageError } from './parseArguments';
import { UnusableInput } from './readSource';
import { statsCommand } from './statsCommand';
import { trustCommand } from './trustCommand';
import { USAGE } from './usage';
import { verifyCommand } from './verifyCommand';

/**
 * The `arbiter` command: verify, trust, export. Gives the exit code. Every line it
 * prints is escaped, so text from a file or a server cannot forge output lines;
 * bad input is a message and exit code 2, never a stack trace.
 */
export async function main(args: readonly string[], io: Io = processIo()): Promise<number> {
  const safe = escapedIo(io);
  const [verb, ...rest] = args;
  try {
    switch (verb) {
      case undefined:
        for (const line of USAGE.split('\n')) safe.err(line);
        return EXIT.unusable;
      case '--help':
      case '-h':
      case 'help':
        for (const line of USAGE.split('\n')) safe.out(line);
        return EXIT.ok;
      case 'verify':
        return await verifyCommand(rest, safe);
      case 'trust':
        return await withHelp(rest, safe, () => trustCommand(rest, safe));
      case 'export':
        return await withHelp(rest, safe, () => exportCommand(rest, safe));
      case 'stats':
        return await statsCommand(rest, safe);
      default:
        throw new UsageError(`unknown command ${JSON.stringify(verb)}`);
    }
  } catch (error) {
    if (error instanceof UsageError) safe.err(`arbiter: ${error.message} (arbiter --help shows how)`);
    else if (error instanceof UnusableInput) safe.err(`arbiter: ${error.message}`);
    else safe.err(`arbiter: unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.unusable;
  }
}

async function withHelp(args: readonly string[], io: Io, run: () => Promise<number>): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    for (const line of USAGE.split('\n')) io.out(line);
    return EXIT.ok;
  }
  return run();
}
