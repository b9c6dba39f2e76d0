import { describe, expect, it } from 'vitest';
import { QUICKNET, roundAtIso } from '../../../domain/beacon/chain';
import { senderCheck } from '../../../domain/beacon/senderCheck';

describe("beacon.md §6: the sender's check", () => {
  const roundAt = roundAtIso(QUICKNET, 7);
  const t = Date.parse(roundAt);
  const check = (receivedAtMs: number, more: Partial<Parameters<typeof senderCheck>[0]> = {}) => senderCheck({ round: 7, chain: QUICKNET, claimedRoundAt: roundAt, receivedAtMs, ...more });

  it('passes when the round is still ahead of the sender’s clock', () => {
    expect(check(t - 2500)).toEqual({ ok: true, text: 'round 7 was still in the future when the server accepted ✓' });
  });
  it('allows the sender’s clock 2 s ahead of the server’s, not more', () => {
    expect(check(t + 1999).ok).toBe(true);
    const late = check(t + 2000);
    expect(late.ok).toBe(false);
    expect(late.text).toMatch(/^⚠ round 7 was already published 2 s before/);
  });
  it("reads the round's time from the chain, not from the answer (review: a server could give a time still ahead for a round long published)", () => {
    const lie = check(t + 60_000, { claimedRoundAt: new Date(t + 63_000).toISOString() });
    expect(lie.ok).toBe(false);
    expect(lie.text).toMatch(/^⚠ round 7: the server's answer gives its time as .*, but the chain publishes it at /);
  });
  it('accuses no one when the first answer was lost and the round is past: it cannot tell', () => {
    const retried = check(t + 20_000, { retried: true });
    expect(retried.ok).toBe(false);
    expect(retried.text).toMatch(/^round 7 is already published, but the first answer to this command was lost/);
  });
  it('warns when the round time cannot be read, with no chain to compute it', () => {
    expect(check(t, { chain: undefined, claimedRoundAt: 'soon' }).ok).toBe(false);
  });
});
