import { roundAtIso, type BeaconChain } from './chain';

/** How much the sender's clock may be behind the server's (beacon.md §6). */
export const SENDER_CLOCK_ALLOWANCE_MS = 2000;

export type SenderCheck = { ok: boolean; text: string };

export interface SenderCheckInput {
  /** The round the signed pending commit names (its BeaconRollPending event), not the answer's word for it. */
  round: number;
  /** The game's chain (GameCreated.beacon): the round's time is computed from it. */
  chain?: Pick<BeaconChain, 'genesis' | 'period'>;
  /** The round's time as the server's answer gives it: checked against the chain's when the chain is known. */
  claimedRoundAt: string;
  /** When the 202 reached the sender, by its own clock. */
  receivedAtMs: number;
  /** The command was sent before and that answer lost: the server accepted it at some earlier time. */
  retried?: boolean;
}

/**
 * beacon.md §6: what only the sender can check. When the 202 arrives, the round the
 * pending commit waits for must still be in the future by the sender's own clock (with
 * 2 s allowed for clocks that differ): a server that waited for the beacon before accepting
 * would have known the dice. The round's time is the chain's, not the answer's.
 */
export function senderCheck({ round, chain, claimedRoundAt, receivedAtMs, retried }: SenderCheckInput): SenderCheck {
  const roundAt = chain ? roundAtIso(chain, round) : claimedRoundAt;
  if (chain && claimedRoundAt !== roundAt) {
    return { ok: false, text: `⚠ round ${round}: the server's answer gives its time as ${claimedRoundAt}, but the chain publishes it at ${roundAt}. Keep this game's export and raise it with the organizer.` };
  }
  const at = Date.parse(roundAt);
  if (!Number.isFinite(at)) return { ok: false, text: `⚠ round ${round}: the server gave no time for it that can be read, so this page cannot tell whether it was still in the future` };
  if (at > receivedAtMs - SENDER_CLOCK_ALLOWANCE_MS) return { ok: true, text: `round ${round} was still in the future when the server accepted ✓` };
  if (retried) {
    return { ok: false, text: `round ${round} is already published, but the first answer to this command was lost, so this page cannot tell whether it was still in the future when the server accepted it` };
  }
  const late = Math.round((receivedAtMs - at) / 1000);
  return {
    ok: false,
    text: `⚠ round ${round} was already published ${late} s before the server's answer reached you: the server may have seen the beacon, and so the dice, before it accepted your command. Keep this game's export and raise it with the organizer.`,
  };
}
