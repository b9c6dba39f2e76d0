/** How a flag takes its value: none, one (the last given wins), or one each time it is given. */
export type FlagKind = 'boolean' | 'string' | 'strings';

export interface ParsedArguments {
  positionals: string[];
  booleans: Set<string>;
  strings: Map<string, string[]>;
}

export class UsageError extends Error {}

/**
 * `--name value`, `--name=value`, short aliases, and `--` before positionals that
 * start with a dash. Anything unknown is a UsageError, never ignored.
 */
export function parseArguments(args: readonly string[], flags: Record<string, FlagKind>, aliases: Record<string, string> = {}): ParsedArguments {
  const known = new Map(Object.entries(flags));
  const aliased = new Map(Object.entries(aliases));
  const parsed: ParsedArguments = { positionals: [], booleans: new Set(), strings: new Map() };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      parsed.positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      parsed.positionals.push(arg);
      continue;
    }
    const equals = arg.indexOf('=');
    const written = equals > 0 ? arg.slice(0, equals) : arg;
    const name = aliased.get(written) ?? written;
    const kind = known.get(name);
    if (!kind) throw new UsageError(`unknown option ${JSON.stringify(written)}`);
    if (kind === 'boolean') {
      if (equals > 0) throw new UsageError(`${name} takes no value`);
      parsed.booleans.add(name);
      continue;
    }
    let value: string | undefined;
    if (equals > 0) value = arg.slice(equals + 1);
    else if (i + 1 < args.length) value = args[++i];
    if (value === undefined || value === '') throw new UsageError(`${name} needs a value`);
    parsed.strings.set(name, [...(parsed.strings.get(name) ?? []), value]);
  }
  return parsed;
}

/** The last value given for a flag. */
export function lastValue(parsed: ParsedArguments, name: string): string | undefined {
  return parsed.strings.get(name)?.at(-1);
}
