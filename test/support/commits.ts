import type { Commit } from '../../domain/fairness/hashChain';
import { buildCommit } from '../../domain/game/buildCommit';

/** A well-formed commit for store tests; the store does not look inside it. */
export function sampleCommit(gameId: string, seq: number, commandId = `c${seq}`): Commit {
  return buildCommit(
    {
      gameId,
      seq,
      prevHash: '0'.repeat(64),
      commandId,
      actor: 'player1',
      viaOrganizer: false,
      command: { type: 'Roll', payload: { dice: 'd6', purpose: `roll ${seq}` } },
      events: [],
      dice: [{ sides: 6, value: 1 + (seq % 6) }],
      recordedAt: '2026-11-22T10:00:00.000Z',
      kid: 'test',
    },
    () => 'c2ln',
  );
}
