import { describe, expect, it } from 'vitest';
import { buildKeyRotation, type KeyRotation } from '../../../domain/trust/keyRotation';
import { keyLogForks, retiredSignature, retirementOf } from '../../../domain/trust/retirement';
import { newKey, type TestKey } from '../../domain/verify/signedExports';

const RETIRED_AT = '2026-11-22T10:00:00.000Z';
const rotation = (n: number, from: TestKey, to: TestKey, at = RETIRED_AT): KeyRotation => buildKeyRotation({ n, previous: from.fingerprint, next: to.jwk, at }, from.sign);

describe('retiredSignature (trust.md §6)', () => {
  const a = newKey('a');
  const b = newKey('b');
  const c = newKey('c');
  const log = [rotation(1, a, b), rotation(2, b, c, '2026-11-25T08:00:00.000Z')];

  it('lets a key sign up to its retirement, and names the key and the statement for anything later', () => {
    expect(retiredSignature(a.fingerprint, '2026-11-22T09:59:59.999Z', log)).toBeUndefined();
    expect(retiredSignature(a.fingerprint, RETIRED_AT, log)).toBeUndefined();
    expect(retiredSignature(a.fingerprint, '2026-11-22T10:00:00.001Z', log)).toBe(
      `signed at 2026-11-22T10:00:00.001Z by ${a.fingerprint}, which key log statement 1 retired at ${RETIRED_AT}: a retired key signs nothing after its retirement`,
    );
    expect(retiredSignature(b.fingerprint, '2026-11-26T00:00:00.000Z', log)).toMatch(/key log statement 2 retired at 2026-11-25T08:00:00.000Z/);
  });

  it('leaves the current key and keys the log does not name alone, whatever the time', () => {
    expect(retiredSignature(c.fingerprint, '2099-01-01T00:00:00.000Z', log)).toBeUndefined();
    expect(retiredSignature(newKey().fingerprint, '2099-01-01T00:00:00.000Z', log)).toBeUndefined();
    expect(retiredSignature(a.fingerprint, '2099-01-01T00:00:00.000Z', [])).toBeUndefined();
  });

  it('compares instants, not spellings: a time in another zone counts where it falls', () => {
    expect(retiredSignature(a.fingerprint, '2026-11-22T10:30:00+01:00', log)).toBeUndefined();
    expect(retiredSignature(a.fingerprint, '2026-11-22T10:30:00-01:00', log)).toMatch(/^signed at 2026-11-22T10:30:00-01:00 /);
  });

  it('takes the retirement from any of the logs given, the earliest when they differ', () => {
    expect(retirementOf(a.fingerprint, undefined, 'not a log', log)).toEqual({ statement: 1, at: RETIRED_AT });
    const earlier = [rotation(1, a, c, '2026-11-21T00:00:00.000Z')];
    expect(retirementOf(a.fingerprint, log, earlier)).toEqual({ statement: 1, at: '2026-11-21T00:00:00.000Z' });
  });

  it('refuses a signature whose time, or whose key\'s retirement time, cannot be read: nothing shows it came first', () => {
    expect(retiredSignature(a.fingerprint, 'yesterday', log)).toMatch(/at a time that is not an ISO-8601 time: it cannot be shown to come before the retirement$/);
    expect(retiredSignature(a.fingerprint, undefined, log)).toMatch(/not an ISO-8601 time/);
    expect(retiredSignature(a.fingerprint, '2026-11-22T09:00:00.000Z', [rotation(1, a, b, 'soon')])).toMatch(/retired at a time that is not an ISO-8601 time/);
    // A retired key's signature without a readable time is refused; an unretired key's is not this rule's question.
    expect(retiredSignature(c.fingerprint, 'yesterday', log)).toBeUndefined();
  });

  it('finds a forked key log: a second, different statement retiring a key already retired, in one log or across logs', () => {
    const mallory = newKey('m');
    const fork = rotation(2, a, mallory, '2026-11-26T00:00:00.000Z');
    expect(keyLogForks(log)).toEqual([]);
    expect(keyLogForks(log, log.slice(0, 1))).toEqual([]);
    expect(keyLogForks([...log, fork])).toEqual([
      `two different statements retire ${a.fingerprint} (key log statements 1 and 2): the key log was forked, which only whoever holds that retired key can do`,
    ]);
    // The file's log replaced by the forger's, against the log the person kept.
    expect(keyLogForks([rotation(1, a, mallory, '2026-11-21T00:00:00.000Z')], log)).toHaveLength(1);
  });
});
