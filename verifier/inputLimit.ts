import { UsageError } from './parseArguments';
import { MAX_INPUT_BYTES } from './readSource';

const UNITS = new Map([
  ['', 1],
  ['k', 1024],
  ['m', 1024 * 1024],
  ['g', 1024 * 1024 * 1024],
]);

/**
 * The most bytes `verify` reads: --max-bytes, else $ARBITER_MAX_BYTES, else 50 MB.
 * A whole number of bytes, or with K, M or G (KiB, MiB, GiB): `200M`.
 */
export function inputLimit(flag: string | undefined, env: Record<string, string | undefined>): number {
  if (flag !== undefined) return parseByteCount(flag, '--max-bytes');
  const fromEnv = env.ARBITER_MAX_BYTES;
  if (fromEnv !== undefined && fromEnv !== '') return parseByteCount(fromEnv, 'ARBITER_MAX_BYTES');
  return MAX_INPUT_BYTES;
}

function parseByteCount(text: string, name: string): number {
  const match = /^([1-9][0-9]{0,15})([kmg]?)b?$/i.exec(text.trim());
  const bytes = match ? Number(match[1]) * (UNITS.get(match[2].toLowerCase()) ?? 1) : NaN;
  if (!Number.isSafeInteger(bytes)) throw new UsageError(`${name} takes a number of bytes such as 52428800 or 200M, not ${JSON.stringify(text)}`);
  return bytes;
}
