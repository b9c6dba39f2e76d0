import type { ExportBundle } from '../../domain/verify/exportBundle';
import { fingerprintOf } from '../../domain/trust/fingerprint';
import { memoryService } from './memoryService';

/** A sealed dice game exported by the application service itself, as GET /games/{id}/export returns it, and its signer's fingerprint. */
export async function serviceExport(label: string): Promise<{ bundle: ExportBundle; fingerprint: string }> {
  const { service, key } = memoryService(label);
  const game = await service.createGame({ ruleset: 'dice' });
  const { player1, player2 } = game.tokens.players;
  await service.submit(game.gameId, player1, { commandId: 'e', type: 'ContributeEntropy', payload: { entropy: 'é ✓ 😀' } });
  for (let i = 0; i < 6; i++) await service.submit(game.gameId, i % 2 ? player1 : player2, { commandId: `r${i}`, type: 'Roll', payload: { dice: '2d6+1d20', purpose: `fire ${i}` } });
  await service.submit(game.gameId, game.tokens.organizer, { commandId: 's', type: 'Seal', payload: {} });
  return { bundle: JSON.parse(JSON.stringify(await service.exportBundle(game.gameId, player1))), fingerprint: fingerprintOf({ x: key.jwk.x! }) };
}
