import type { KeyRotation } from '../../domain/trust/keyRotation';
import type { PublishedKey } from '../../domain/trust/publishedKey';

interface KeysDocument {
  keys: PublishedKey[];
  log: KeyRotation[];
}

/**
 * The start banner's retired keys: each signed the games of before its rotation, and
 * nothing after it (trust.md §6). Those games are checked against it, so it is pinned too.
 */
export function retiredKeyLines({ keys, log }: KeysDocument): string[] {
  return keys
    .filter((k) => k.status === 'retired')
    .map((k) => {
      const statement = log.find((s) => s.previous === k.fingerprint);
      const when = statement ? `retired at ${statement.at} by key log statement ${statement.n}` : 'retired';
      return `  retired key fingerprint: ${k.fingerprint} (${when}: pin it too, to verify the games it signed before then)`;
    });
}

/** `--trust` for every key the server lists, current first: what a pre-rotation game needs too. */
export function pinArguments({ keys }: KeysDocument): string {
  return keys.map((k) => `--trust ${k.fingerprint}`).join(' ');
}
