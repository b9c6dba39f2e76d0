import { homedir } from 'node:os';
import { printable } from './printable';

/** Where the CLI writes, what it reads from its environment, and its clock; tests replace them. */
export interface Io {
  /** The words that run this CLI, as the person would type them (commandName.ts): every usage line and hint starts with them. */
  command: string;
  /** One line of output; the CLI has already made it printable. */
  out(line: string): void;
  err(line: string): void;
  /** Raw text for stdout (an export piped to a file). */
  write(text: string): void;
  /** A status line rewritten in place on a terminal's stderr ('' clears it); absent when stderr is not a terminal. */
  progress?: (text: string) => void;
  env: Record<string, string | undefined>;
  home: string;
  now(): Date;
}

export function processIo(command: string): Io {
  // Output piped into `head` may be closed early: that is not an error worth a stack trace.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  return {
    command,
    out: (line) => void process.stdout.write(`${line}\n`),
    err: (line) => void process.stderr.write(`${line}\n`),
    write: (text) => void process.stdout.write(text),
    ...(process.stderr.isTTY ? { progress: (text: string) => void process.stderr.write(`\r\u001b[K${text}`) } : {}),
    env: process.env,
    home: homedir(),
    now: () => new Date(),
  };
}

/** The same Io, with every line escaped: text from files and servers cannot forge lines. */
export function escapedIo(io: Io): Io {
  const progress = io.progress;
  return {
    ...io,
    out: (line) => io.out(printable(line)),
    err: (line) => io.err(printable(line)),
    ...(progress ? { progress: (text: string) => progress(printable(text)) } : {}),
  };
}
