import { describe, expect, it } from 'vitest';
import { verifyBundle } from '../../../domain/verify/verifyBundle';
import { ApplicationError } from '../../../functions/application/errors';
import { memoryService } from '../../support/memoryService';
import { declaration } from '../../domain/rulesets/france44/harness';

const hqAlone = declaration('c1', { attackers: [{ unitId: '1US-HQ', hex: '2708', hq: true, strength: 5 }], defenders: [{ unitId: '352', hex: '2709', strength: 1 }] });

async function franceGame(options?: Record<string, unknown>) {
  const { service } = memoryService('new-game-options');
  const game = await service.createGame({ ruleset: 'france44', ...(options ? { options } : {}) });
  const organizer = game.tokens.organizer;
  await service.submit(game.gameId, organizer, { commandId: 'turn', type: 'StartTurn', payload: { turn: 1 } });
  await service.submit(game.gameId, game.tokens.players.allied, { commandId: 'inc', type: 'BeginAttackIncrement', payload: {} });
  return { service, game };
}

describe('a new game plays the current rules', () => {
  it('records the current rules version in commit 1 when the request names none, refuses what it refuses, and verifies', async () => {
    const { service, game } = await franceGame();
    const bundle = await service.exportBundle(game.gameId, game.tokens.organizer);
    expect(bundle.commits[0].command.payload).toMatchObject({ options: { rulesVersion: 2 } });
    expect(bundle.commits[0].events[0].data).toMatchObject({ options: { rulesVersion: 2 } });
    const refused = await service.submit(game.gameId, game.tokens.players.allied, { commandId: 'hq', type: 'DeclareCombat', payload: hqAlone }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'rule_violation' });
    expect(refused).not.toBeInstanceOf(ApplicationError);
    expect(verifyBundle(await service.exportBundle(game.gameId, game.tokens.organizer)).ok).toBe(true);
  });

  it('keeps the version a request names: a game created for the first rules plays them, and verifies', async () => {
    const { service, game } = await franceGame({ rulesVersion: 1 });
    const accepted = await service.submit(game.gameId, game.tokens.players.allied, { commandId: 'hq', type: 'DeclareCombat', payload: hqAlone });
    expect(accepted.created).toBe(true);
    expect(verifyBundle(await service.exportBundle(game.gameId, game.tokens.organizer)).ok).toBe(true);
  });

  it('adds nothing for a ruleset with no options for new games', async () => {
    const { service } = memoryService('new-game-options-normandy');
    const game = await service.createGame({ ruleset: 'normandy44' });
    expect((await service.exportBundle(game.gameId, game.tokens.organizer)).commits[0].command.payload).toEqual({ ruleset: 'normandy44' });
  });
});
