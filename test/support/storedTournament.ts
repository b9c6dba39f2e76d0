import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { sign, type KeyObject } from 'node:crypto';
import { buildGameHead } from '../../domain/trust/gameHead';
import { fingerprintOf } from '../../domain/trust/fingerprint';
import { kidOf } from '../../functions/application/signer';
import { hashToken, newToken } from '../../functions/application/tokens';
import { DynamoEventStore } from '../../functions/store/dynamoStore';
import { AT, diceMoves, playGame, type TestKey } from '../domain/verify/signedExports';

/** How many commits one item holds when the fixture writes a game: a few puts per game, as the local server's group commits write them. */
const COMMITS_PER_ITEM = 50;

/** The server's signing key as the fixture signs with it: the private key the fake KMS is given (fakeKms.ts `privateKeys`). */
export function serverKey(privateKey: KeyObject): TestKey {
  const x = privateKey.export({ format: 'jwk' }).x!;
  const jwk = { kty: 'OKP' as const, crv: 'Ed25519' as const, x, kid: kidOf(x) };
  return { jwk, fingerprint: fingerprintOf(jwk), sign: (hashHex) => sign(null, Buffer.from(hashHex, 'hex'), privateKey).toString('base64') };
}

/**
 * A tournament of `games` sealed dice games of `commits` commits each, written straight into the
 * table (no HTTP command): each game played by the domain (signedExports.ts playGame) and signed
 * with the server's key, stored in groups with its signed head on the last, and listed in the
 * tournament, as the service would have stored it. Gives the tournament's id and token.
 */
export async function storeTournament(client: DynamoDBClient, tableName: string, key: TestKey, options: { games: number; commits: number; name?: string }) {
  if (options.commits < 4) throw new Error('a sealed dice game has at least 4 commits (creation, two entropies, seal)');
  const store = new DynamoEventStore(client, tableName, { groups: true });
  const token = newToken();
  const tournamentId = `t-bundle${Date.now().toString(36)}`;
  await store.createTournament({ tournamentId, name: options.name ?? 'Weekend round', createdAt: AT, tokenHash: hashToken(token) });
  const gameIds: string[] = [];
  for (let g = 0; g < options.games; g++) {
    const gameId = `g-round-${String(g).padStart(4, '0')}`;
    // The creation, two entropies, the rolls, the seal.
    const played = playGame({ gameId, tournamentId, moves: diceMoves(options.commits - 4), keyFor: () => key });
    const [first, ...rest] = played.commits;
    const last = played.commits.at(-1)!;
    const head = buildGameHead({ gameId, seq: last.seq, lastHash: last.hash, sealed: true, at: AT, kid: key.jwk.kid }, key.sign);
    await store.createGame(first, { tokenHashes: { organizer: hashToken(newToken()), players: { player1: hashToken(newToken()), player2: hashToken(newToken()) } }, tournamentId });
    for (let start = 0; start < rest.length; start += COMMITS_PER_ITEM) {
      const group = rest.slice(start, start + COMMITS_PER_ITEM);
      const answer = await store.appendGroup(group, start + COMMITS_PER_ITEM >= rest.length ? head : undefined);
      if (!answer.ok) throw new Error(`${gameId}: seq ${group[0].seq} was taken`);
    }
    await store.addTournamentGame(tournamentId, gameId);
    gameIds.push(gameId);
  }
  return { tournamentId, token, gameIds };
}
