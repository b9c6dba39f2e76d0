import * as z from 'zod';
import { checkPayload, commandTypes } from '../../domain/game/decideGame';
import { SERVICE_COMMANDS } from '../../domain/game/gameCommands';
import { GameSealed } from '../../domain/errors';
import { ORGANIZER } from '../../domain/ruleset';
import type { ActingToken, Credentials } from './credentials';
import { ApplicationError, invalidRequest, notFound } from './errors';
import type { CachedGame, GameRepository } from './gameRepository';
import type { GameSeeds } from './gameSeeds';
import type { CommandOutcome, GroupCommit } from './groupCommit';
import type { KeyedLock } from './keyedLock';
import { randomId } from './tokens';
import { fieldIssues, IN_WORDS, shown } from './zodIssues';

export const CommandRequest = z.strictObject({
  commandId: z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, 'a commandId is 1 to 128 letters, digits or . _ : -'),
  type: z.string().min(1).max(64),
  payload: z.unknown().optional(),
  expectedVersion: z.int().min(1).optional(),
  as: z.string().min(1).max(64).optional(),
});
export type CommandRequest = z.infer<typeof CommandRequest>;

export interface GameCommandsDeps {
  games: GameRepository;
  credentials: Credentials;
  seeds: GameSeeds;
  groupCommit: GroupCommit;
  /** The game's lock, shared with the seed's move: token commands run one at a time per game. */
  locks: KeyedLock;
  now: () => string;
  soleWriter: boolean;
}

/**
 * Commands: POST /games/{id}/commands and the token commands. Each request's token is
 * checked once, here; group commit judges the resolved token against the state each
 * command is decided on (credentials.ts, stillActs).
 */
export class GameCommands {
  constructor(private readonly deps: GameCommandsDeps) {}

  /** POST /games/{id}/commands. */
  async submit(gameId: string, token: string | undefined, body: unknown): Promise<CommandOutcome> {
    const { games, credentials } = this.deps;
    // Optimistic: a warm process decides on its cached state; if another process has
    // appended since, the conditional write loses and the group is decided again.
    let game = games.peek(gameId) ?? (await games.load(gameId));
    let acting: ActingToken;
    try {
      acting = await credentials.acting(game, token);
    } catch (error) {
      // A token reissued through another process is unknown to a cache that has not read that commit yet.
      if (this.deps.soleWriter) throw error;
      game = await games.load(gameId, true);
      acting = await credentials.acting(game, token);
    }
    await this.deps.seeds.moveLegacySeed(game);
    const request = CommandRequest.safeParse(body, IN_WORDS);
    if (!request.success) throw invalidRequest(fieldIssues(request.error));
    const { commandId, type, expectedVersion, as } = request.data;
    if (as !== undefined && acting.role !== ORGANIZER) {
      throw new ApplicationError(403, 'forbidden', 'Only the organizer token may act for a side with "as".');
    }
    if (SERVICE_COMMANDS.has(type)) {
      throw invalidRequest([{ field: 'type', message: `must not be ${type}: that is sent with ${type === 'ReissueToken' ? 'POST' : 'DELETE'} /games/{id}/tokens/{role}` }]);
    }
    const check = checkPayload(game.state.ruleset, type, request.data.payload, IN_WORDS);
    if (!check.ok) {
      if ('unknownType' in check) {
        const known = commandTypes(game.state.ruleset);
        throw invalidRequest([{ field: 'type', message: `must be a command of the ${game.state.ruleset.id} ruleset, not ${shown(type)}: its commands are ${known.join(', ')}`, valid: known }]);
      }
      throw invalidRequest(fieldIssues(check.error, 'payload'));
    }
    return this.deps.groupCommit.submit(gameId, acting, { commandId, command: { type, payload: check.payload }, as, expectedVersion });
  }

  /** POST /games/{id}/tokens/{role}: a new token for the role, shown once; the old one stops working with the commit. */
  async reissueToken(gameId: string, token: string | undefined, role: string) {
    return this.deps.locks.run(gameId, async () => {
      const { game, acting } = await this.tokenCommandGame(gameId, token, role, 'reissue tokens');
      const issued = await this.deps.credentials.issue(game, role, this.deps.now());
      const command = { type: 'ReissueToken', payload: { role, tokenId: issued.tokenId } };
      const outcome = await this.deps.groupCommit.submit(gameId, acting, { commandId: `token-${issued.tokenId}`, command });
      return { gameId, role, token: issued.token, version: outcome.version, commit: outcome.commit };
    });
  }

  /** DELETE /games/{id}/tokens/{role}: the role's token stops working with the commit. */
  async revokeToken(gameId: string, token: string | undefined, role: string) {
    return this.deps.locks.run(gameId, async () => {
      const { acting } = await this.tokenCommandGame(gameId, token, role, 'revoke tokens');
      const outcome = await this.deps.groupCommit.submit(gameId, acting, { commandId: randomId('revoke'), command: { type: 'RevokeToken', payload: { role } } });
      return { gameId, role, version: outcome.version, commit: outcome.commit };
    });
  }

  private async tokenCommandGame(gameId: string, token: string | undefined, role: string, action: string): Promise<{ game: CachedGame; acting: ActingToken }> {
    const game = await this.deps.games.load(gameId);
    const acting = await this.deps.credentials.organizerOnly(game, token, action);
    if (role !== ORGANIZER && !game.state.sides.includes(role)) {
      throw notFound(`This game has no role ${shown(role)}: its roles are organizer, ${game.state.sides.join(', ')}.`, [ORGANIZER, ...game.state.sides]);
    }
    if (game.state.sealed) throw new GameSealed();
    return { game, acting };
  }
}
