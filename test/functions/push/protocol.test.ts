import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRuleset, RULESET_IDS } from '../../../functions/application/rulesetLoader';
import type { Commit } from '../../../domain/fairness/hashChain';
import { commitText, deliveryFor, isIdentity } from '../../../functions/push/delivery';
import { originAllowed } from '../../../functions/push/origin';
import { parseClientMessage, PUSH_LIMITS } from '../../../functions/push/protocol';

const commit = (seq: number, events: Commit['events'] = [], extra: Partial<Commit> = {}): Commit => ({
  gameId: 'g-1',
  seq,
  commandId: `c${seq}`,
  actor: 'red',
  command: { type: 'Roll', payload: { dice: '1d6', purpose: 'x' } },
  events,
  dice: [],
  recordedAt: '2026-11-22T10:00:00.000Z',
  kid: 'k',
  prevHash: '0'.repeat(64),
  hash: 'a'.repeat(64),
  signature: 's',
  ...extra,
});

// The service reads a game's ruleset once it has loaded it (rulesetLoader.ts); these games are folded with the domain's registry.
beforeAll(async () => {
  for (const id of RULESET_IDS) await loadRuleset(id);
});

describe('the push protocol', () => {
  it('reads the three messages, exactly', () => {
    expect(parseClientMessage('{"action":"subscribe","gameId":"g-1","token":"t","after":3}', false)).toEqual({ ok: true, message: { action: 'subscribe', gameId: 'g-1', token: 't', after: 3 } });
    expect(parseClientMessage('{"action":"subscribe","gameId":"g-1","after":0}', false)).toEqual({ ok: true, message: { action: 'subscribe', gameId: 'g-1', after: 0 } });
    expect(parseClientMessage(Buffer.from('{"action":"unsubscribe","gameId":"g-1"}'), false)).toEqual({ ok: true, message: { action: 'unsubscribe', gameId: 'g-1' } });
    expect(parseClientMessage('{"action":"ping"}', false)).toEqual({ ok: true, message: { action: 'ping' } });
    // after is required: a client says what it holds.
    expect(parseClientMessage('{"action":"subscribe","gameId":"g-1"}', false)).toMatchObject({ ok: false, error: { code: 'invalid_request', gameId: 'g-1' } });
  });

  it('never throws, never echoes a token, and answers anything else with a refusal', () => {
    const secret = 'arb_SECRET_TOKEN_VALUE';
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ action: 'subscribe', token: secret, gameId: v, after: v }))), (text) => {
        const parsed = parseClientMessage(text, false);
        if (!parsed.ok) {
          expect(parsed.error.type).toBe('error');
          expect(JSON.stringify(parsed.error)).not.toContain(secret);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('announces a commit too large for one frame as a gap, to be read over HTTP', () => {
    const big = commit(7, [{ type: 'DiceRolled', data: { purpose: 'x'.repeat(PUSH_LIMITS.maxFrameBytes) } }]);
    expect(JSON.parse(commitText('dice', big, PUSH_LIMITS))).toEqual({ type: 'gap', gameId: 'g-1', after: 6, version: 7 });
    expect(JSON.parse(commitText('dice', commit(2), PUSH_LIMITS))).toMatchObject({ type: 'commit', gameId: 'g-1', commit: { seq: 2 } });
    // A summary the ruleset cannot make (events it never emits) costs the summary, not the delivery.
    expect(JSON.parse(commitText('dice', commit(3, [{ type: 'DiceRolled', data: {} }]), PUSH_LIMITS)).line).toBe('#3 red Roll [aaaaaaaa]');
  });

  it("gives each commit its ruleset's result text beside the line, '' for a commit that resolves nothing", () => {
    const rolled = commit(2, [{ type: 'DiceRolled', data: { purpose: 'x', dice: '2d6', rolls: [{ sides: 6, value: 3 }, { sides: 6, value: 5 }], modifier: 0, total: 8 } }]);
    expect(JSON.parse(commitText('dice', rolled, PUSH_LIMITS))).toMatchObject({ type: 'commit', line: '#2 red Roll "x": 2d6 = 3 5 = 8 [aaaaaaaa]', result: 'total 8' });
    const created = commit(1, [], { command: { type: 'CreateGame', payload: {} } });
    expect(JSON.parse(commitText('dice', created, PUSH_LIMITS)).result).toBe('');
    // Events the ruleset cannot read cost the result text, not the delivery.
    expect(JSON.parse(commitText('dice', commit(3, [{ type: 'DiceRolled', data: {} }]), PUSH_LIMITS)).result).toBe('');
  });

  it('sends a subscriber only what it lacks, and ends it at the commit that takes its token away', () => {
    const red = { identity: 'role:red' as const, after: 3, authorizedAt: 3 };
    expect(deliveryFor(red, commit(3), 't').kind).toBe('skip');
    expect(deliveryFor(red, commit(4), 't')).toEqual({ kind: 'send', text: 't' });
    const revoke = commit(4, [{ type: 'TokenRevoked', data: { role: 'red' } }]);
    expect(deliveryFor(red, revoke, 't').kind).toBe('end');
    expect(deliveryFor({ ...red, identity: 'role:blue' }, revoke, 't').kind).toBe('send');
    expect(deliveryFor({ ...red, identity: 'public' }, revoke, 't').kind).toBe('send');
    // A revocation before the token was checked (it was reissued since) is history, not an end.
    expect(deliveryFor({ ...red, after: 2, authorizedAt: 9 }, commit(3, [{ type: 'TokenReissued', data: { role: 'red', tokenId: 'k-1' } }]), 't').kind).toBe('send');
    expect(deliveryFor(red, commit(4, [{ type: 'TokenReissued', data: { role: 'red', tokenId: 'k-1' } }]), 't').kind).toBe('end');
  });

  it('trusts only identities it wrote', () => {
    for (const ok of ['public', 'role:red', 'role:organizer', 'viewer:v-abc123']) expect(isIdentity(ok), ok).toBe(true);
    for (const bad of ['', 'admin', 'role:', 'viewer:x', 'viewer:v-ABC', 7, null]) expect(isIdentity(bad), String(bad)).toBe(false);
  });

  it('lets in programs, the server\'s own pages and the origins listed', () => {
    expect(originAllowed(undefined, 'a:1', [])).toBe(true);
    expect(originAllowed('http://a:1', 'a:1', [])).toBe(true);
    expect(originAllowed('http://b:1', 'a:1', [])).toBe(false);
    expect(originAllowed('http://b:1', 'a:1', ['http://b:1/'])).toBe(true);
    expect(originAllowed('null', 'a:1', [])).toBe(false);
    expect(originAllowed('http://b:1', 'a:1', ['*'])).toBe(true);
  });
});
