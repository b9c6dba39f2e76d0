import { describe, expect, it } from 'vitest';
import { senderCheck } from '../../../domain/beacon/senderCheck';

describe("beacon.md §6: the sender's check", () => {
  const roundAt = '2026-11-27T10:00:03.000Z';
  const t = Date.parse(roundAt);
  it('passes when the round is still ahead of the sender’s clock', () => {
    expect(senderCheck(7, roundAt, t - 2500)).toEqual({ ok: true, text: 'round 7 was still in the future when the server accepted ✓' });
  });
  it('allows the sender’s clock 2 s ahead of the server’s, not more', () => {
    expect(senderCheck(7, roundAt, t + 1999).ok).toBe(true);
    const late = senderCheck(7, roundAt, t + 2000);
    expect(late.ok).toBe(false);
    expect(late.text).toMatch(/^⚠ round 7 was already published 2 s before/);
  });
  it('warns when the round time cannot be read', () => {
    expect(senderCheck(7, 'soon', t).ok).toBe(false);
  });
});
