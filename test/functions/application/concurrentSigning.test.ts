import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GameService } from '../../../functions/application/gameService';
import { signGroup } from '../../../functions/application/groupCommit';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import type { Signer } from '../../../functions/ports/signer';
import { MemoryEventStore } from '../../../functions/store/memoryStore';

/**
 * A signer that takes a few turns of the event loop to answer, as KMS takes a round trip,
 * and records when each signature of a hash starts and ends: on AWS a command's latency is
 * one Sign round trip, not two, when its commit and its head are signed at once (the head
 * names the commit's hash, not its signature: trust.md §4).
 */
function recordingSigner() {
  const inner = signerFromKey(generateSigningKey());
  const events: string[] = [];
  const signer: Signer = {
    ...inner,
    async sign(hashHex) {
      events.push(`start ${hashHex}`);
      for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
      const signature = await inner.sign(hashHex);
      events.push(`end ${hashHex}`);
      return signature;
    },
  };
  /** Whether both hashes were being signed at one moment: each started before the other ended. */
  const overlapped = (a: string, b: string) =>
    events.indexOf(`start ${a}`) >= 0 && events.indexOf(`start ${b}`) >= 0 && events.indexOf(`start ${a}`) < events.indexOf(`end ${b}`) && events.indexOf(`start ${b}`) < events.indexOf(`end ${a}`);
  return { signer, events, overlapped };
}

describe('a command\'s commit and its signed head', () => {
  it('are signed at the same time, creation and command alike', async () => {
    const { signer, overlapped } = recordingSigner();
    let games = 0;
    const service = new GameService({
      store: new MemoryEventStore(),
      signer,
      seedVault: aesSeedVault(newSeedKey()),
      soleWriter: true,
      randomSeed: () => createHash('sha256').update(`signing:${games}`).digest(),
      newGameId: () => `g-signing-${++games}`,
    });
    const game = await service.createGame({ ruleset: 'dice' });
    const created = await service.head(game.gameId, game.tokens.organizer);
    expect(created.seq).toBe(1);
    expect(overlapped(created.lastHash, created.hash)).toBe(true);

    const outcome = await service.submit(game.gameId, game.tokens.players.player1, { commandId: 'r1', type: 'Roll', payload: { dice: '2d6', purpose: 'signed at once' } });
    const head = await service.head(game.gameId, game.tokens.organizer);
    expect(head).toMatchObject({ seq: 2, lastHash: outcome.commit.hash });
    expect(overlapped(outcome.commit.hash, head.hash)).toBe(true);
    await service.idle();
  });

  it('of a group: every commit and the head of the last are signed at once', async () => {
    const { signer, events } = recordingSigner();
    const hashed = ['a', 'b', 'c'].map((label, i) => ({
      unsigned: { gameId: 'g-1', seq: i + 2, recordedAt: '2026-11-27T12:00:00.000Z', kid: signer.kid } as never,
      hash: createHash('sha256').update(label).digest('hex'),
    }));
    const signed = await signGroup(signer, hashed, false);
    expect(signed.map((s) => s.commit.hash)).toEqual(hashed.map((h) => h.hash));
    // Four signatures (three commits, one head), all started before the first ended.
    expect(events.slice(0, 4).every((e) => e.startsWith('start '))).toBe(true);
    expect(events.filter((e) => e.startsWith('end '))).toHaveLength(4);
    expect(signed.at(-1)!.head).toMatchObject({ seq: 4, lastHash: hashed[2].hash });
  });
});
