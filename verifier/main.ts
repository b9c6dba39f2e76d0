import { EXIT } from '../domain/verify/verifierReport';
import { CLONE_COMMAND } from './commandName';
import { exportCommand } from './exportCommand';
import { escapedIo, processIo, type Io } from './io';
import { UsageError } from './parseArguments';
import { UnusableInput } from './readSource';
import { statsCommand } from './statsCommand';
import { trustCommand } from './trustCommand';
import { usage } from './usage';
import { verifyCommand } from './verifyCommand';

/** A command of the CLI: its arguments after its name, the (escaped) Io; gives the exit code. */
type Command = (args: readonly string[], io: Io) => Promise<number>;

/** The commands by name; a new one is one line here (and its lines in usage.ts). */
export const COMMANDS: ReadonlyMap<string, Command> = new Map<string, Command>([
  ['verify', verifyCommand],
  ['trust', (args, io) => withHelp(args, io, trustCommand)],
  ['export', (args, io) => withHelp(args, io, exportCommand)],
  ['stats', statsCommand],
]);

const HELP = new Set(['--help', '-h', 'help']);

/** Whether `word`, the first argument, names a command or asks for help (the standalone file takes a bare FILE as `verify FILE`). */
export function isCommandWord(word: string): boolean {
  return COMMANDS.has(word) || HELP.has(word);
}

/**
 * The CLI: verify, trust, export, stats. Gives the exit code. Every line it prints is escaped,
 * so text from a file or a server cannot forge output lines; bad input is a message and
 * exit code 2, never a stack trace.
 */
export async function main(args: readonly string[], io: Io = processIo(CLONE_COMMAND)): Promise<number> {
  const safe = escapedIo(io);
  const [verb, ...rest] = args;
  try {
    if (verb === undefined) {
      for (const line of usage(io.command).split('\n')) safe.err(line);
      return EXIT.unusable;
    }
    if (HELP.has(verb)) {
      for (const line of usage(io.command).split('\n')) safe.out(line);
      return EXIT.ok;
    }
    const command = COMMANDS.get(verb);
    if (!command) throw new UsageError(`unknown command ${JSON.stringify(verb)}`);
    return await command(rest, safe);
  } catch (error) {
    if (error instanceof UsageError) safe.err(`arbiter: ${error.message} (${io.command} --help shows how)`);
    else if (error instanceof UnusableInput) safe.err(`arbiter: ${error.message}`);
    else safe.err(`arbiter: unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.unusable;
  }
}

async function withHelp(args: readonly string[], io: Io, run: Command): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    for (const line of usage(io.command).split('\n')) io.out(line);
    return EXIT.ok;
  }
  return run(args, io);
}
