import { KeyRotationShape } from './keyRotation';

/** The KeyRotation statement that retired a key (trust.md §6). */
export interface Retirement {
  /** The statement's `n`. */
  statement: number;
  /** The statement's `at`: the key signs nothing after it. */
  at: string;
}

/** ISO-8601 as the server writes it: a date, a time to the second or finer, and a zone. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** Milliseconds since 1970 of an ISO-8601 time, or undefined when it is not one. */
export function instantOf(at: unknown): number | undefined {
  if (typeof at !== 'string' || !ISO_TIME.test(at)) return undefined;
  const ms = Date.parse(at);
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * When the key `fingerprint` was retired, by the statements of one or more key logs
 * (the export's and those the person keeps): the earliest statement whose `previous` is
 * that key. Statements that are not KeyRotation statements are passed over here; the
 * key-log walk reports them.
 */
export function retirementOf(fingerprint: string, ...keyLogs: unknown[]): Retirement | undefined {
  let earliest: (Retirement & { ms: number }) | undefined;
  for (const log of keyLogs) {
    if (!Array.isArray(log)) continue;
    for (const raw of log) {
      const parsed = KeyRotationShape.safeParse(raw);
      if (!parsed.success || parsed.data.previous !== fingerprint) continue;
      // A retirement at a time that cannot be read counts from the start of time: nothing it signed can be shown to precede it.
      const ms = instantOf(parsed.data.at) ?? Number.NEGATIVE_INFINITY;
      if (!earliest || ms < earliest.ms) earliest = { statement: parsed.data.n, at: parsed.data.at, ms };
    }
  }
  return earliest && { statement: earliest.statement, at: earliest.at };
}

/**
 * trust.md §6: why a signature the key `fingerprint` made at `at` (a commit's
 * `recordedAt`, a head's `at`) cannot stand, because the key had been retired by then;
 * undefined when it can. Pure; one rule for commits, game heads and tournament heads.
 * The reason starts "signed …" and names the key and the statement.
 */
export function retiredSignature(fingerprint: string, at: unknown, ...keyLogs: unknown[]): string | undefined {
  return signedAfterRetirement(fingerprint, retirementOf(fingerprint, ...keyLogs), at);
}

/** retiredSignature with the retirement already looked up (retirementOf), for a key that signed many things. */
export function signedAfterRetirement(fingerprint: string, retirement: Retirement | undefined, at: unknown): string | undefined {
  if (!retirement) return undefined;
  const signed = instantOf(at);
  const retired = instantOf(retirement.at);
  const by = `by ${fingerprint}, which key log statement ${retirement.statement} retired`;
  if (retired === undefined) return `signed ${by} at a time that is not an ISO-8601 time: nothing it signed can be shown to come before its retirement`;
  if (signed === undefined) return `signed ${by} at ${retirement.at}, at a time that is not an ISO-8601 time: it cannot be shown to come before the retirement`;
  if (signed <= retired) return undefined;
  return `signed at ${at as string} ${by} at ${retirement.at}: a retired key signs nothing after its retirement`;
}

/**
 * A key is retired once. Two different statements retiring the same key, in one log or
 * across the logs given (the export's and the person's), mean a second log was made by
 * whoever holds a retired key, to hand trust to a key of their own: each is a failure.
 */
export function keyLogForks(...keyLogs: unknown[]): string[] {
  const byRetiredKey = new Map<string, { n: number; hash: string }>();
  const forks: string[] = [];
  for (const log of keyLogs) {
    if (!Array.isArray(log)) continue;
    for (const raw of log) {
      const parsed = KeyRotationShape.safeParse(raw);
      if (!parsed.success) continue;
      const { previous, n, hash } = parsed.data;
      const earlier = byRetiredKey.get(previous);
      if (!earlier) byRetiredKey.set(previous, { n, hash });
      else if (earlier.hash !== hash) {
        forks.push(`two different statements retire ${previous} (key log statements ${earlier.n} and ${n}): the key log was forked, which only whoever holds that retired key can do`);
      }
    }
  }
  return forks;
}
