/** How much the sender's clock may be behind the server's (beacon.md §6). */
export const SENDER_CLOCK_ALLOWANCE_MS = 2000;

export type SenderCheck = { ok: true; text: string } | { ok: false; text: string };

/**
 * beacon.md §6: what only the sender can check. When the 202 arrives, the round the
 * pending commit waits for must still be in the future by the sender's own clock (with
 * 2 s allowed for clocks that differ): a server that waited for the beacon before accepting
 * would have known the dice.
 */
export function senderCheck(round: number, roundAt: string, receivedAtMs: number): SenderCheck {
  const at = Date.parse(roundAt);
  if (!Number.isFinite(at)) return { ok: false, text: `⚠ round ${round}: the server gave no time for it that can be read, so this page cannot tell whether it was still in the future` };
  if (at > receivedAtMs - SENDER_CLOCK_ALLOWANCE_MS) return { ok: true, text: `round ${round} was still in the future when the server accepted ✓` };
  const late = Math.round((receivedAtMs - at) / 1000);
  return {
    ok: false,
    text: `⚠ round ${round} was already published ${late} s before the server's answer reached you: the server may have seen the beacon, and so the dice, before it accepted your command. Keep this game's export and raise it with the organizer.`,
  };
}
