// Beacon games on the verify pages (docs/beacon.md): the chains a person pins, and what the
// report says of the drand rounds it checked.
import { el } from './dom';

export const PINNED_CHAINS_LABEL = 'Trusted drand chains other than quicknet (chain hash, or hash:public key, one per line)';

/** The chains pasted (a hash, or HASH:PUBLICKEY to bind the key), lowercased: anything else is left for the verifier to name as unknown. */
export const pinnedChains = (text: string) => text.split(/[\s,]+/).map((h) => h.trim().toLowerCase()).filter(Boolean);

/** "drand beacons: k rounds checked ✓", or what failed, for a beacon game's report. */
export function beaconsLine(beacons: { checked: number; chain: string } | undefined, failures: readonly { check: string; reason: string }[]): HTMLElement | null {
  if (!beacons) return null;
  const failed = failures.filter((f) => f.check === 'beacon');
  const rounds = `${beacons.checked} round${beacons.checked === 1 ? '' : 's'}`;
  return failed.length
    ? el('p', { class: 'beacons bad', 'data-beacons': 'failed' }, `drand beacons (chain ${beacons.chain}): not verified — ${failed[0].reason}${failed.length > 1 ? ` (and ${failed.length - 1} more)` : ''}`)
    : el('p', { class: 'beacons ok', 'data-beacons': 'ok' }, `drand beacons: ${rounds} checked ✓ (chain ${beacons.chain})`);
}

/** The beacon games' rounds together: "drand beacons: k rounds checked ✓", or the first game's beacon failure. */
export function tournamentBeaconsLine(reports: readonly { beacons?: { checked: number; chain: string }; failures: readonly { check: string; reason: string }[] }[]): HTMLElement | null {
  const beaconGames = reports.filter((r) => r.beacons);
  if (!beaconGames.length) return null;
  const chains = [...new Set(beaconGames.map((r) => r.beacons!.chain))].join(', ');
  const checked = beaconGames.reduce((sum, r) => sum + r.beacons!.checked, 0);
  return beaconsLine({ checked, chain: chains }, beaconGames.flatMap((r) => r.failures));
}
