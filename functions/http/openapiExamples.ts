import type { ErrorCode } from './apiShapes';

/**
 * Examples of the OpenAPI document (openapi.ts): one game of the dice ruleset as a client
 * sees it. The linter checks each against its schema (test/http/openapiLint.test.ts).
 */

const hex = (seed: string) => seed.repeat(64 / seed.length);
const GAME_ID = 'g-Qm9vWw2cX1hT0aJ5rL8eN3pY';
const TOURNAMENT_ID = 't-8fK2pQ0xZ7mW4cV1nB6yR3tA';
const KID = 'k-3f9a2c41';
const SIGNATURE = 'Zm9yZ2VkIGJ5IG5vYm9keSwgc2hvd24gb25seSBmb3IgaXRzIHNoYXBlIGhlcmUgYW5kIG5vd2hlcmUgZWxzZS4uLg==';
const token = (n: string) => `arb_${n.repeat(43 / n.length + 1).slice(0, 43)}`;
const COMMITMENT = hex('b74d4810');

export const createGameRequest = {
  dice: { summary: 'A dice game for two sides', value: { ruleset: 'dice', title: 'Club night, game 4' } },
  france44: { summary: 'France 1944, with an option', value: { ruleset: 'france44', title: 'Cobra, turn 3', options: { cAttackerLoss: true }, public: true } },
};

export const gameCreated = {
  gameId: GAME_ID,
  ruleset: 'dice',
  sides: ['player1', 'player2'],
  commitment: COMMITMENT,
  version: 1,
  tokens: { organizer: token('Org0'), players: { player1: token('One1'), player2: token('Two2') } },
};

export const commandRequest = {
  roll: { summary: 'Roll dice (dice)', value: { commandId: 'roll-2708', type: 'Roll', payload: { dice: '3d6+1', purpose: 'bombardment of 2708' } } },
  entropy: { summary: 'Add entropy (any ruleset)', value: { commandId: 'entropy-1', type: 'ContributeEntropy', payload: { entropy: 'alpha' } } },
  startTurn: { summary: 'Open a turn (france44), sent by the organizer', value: { commandId: 'turn-3', type: 'StartTurn', payload: { turn: 3, reactionPoints: { allied: 4, german: 6 } }, expectedVersion: 12 } },
  actingFor: { summary: 'The organizer acts for a side', value: { commandId: 'roll-fix-1', type: 'Roll', payload: { dice: 'd6', purpose: 'replacement' }, as: 'player2' } },
};

const rollCommit = {
  gameId: GAME_ID,
  seq: 3,
  commandId: 'roll-2708',
  actor: 'player1',
  command: { type: 'Roll', payload: { dice: '3d6+1', purpose: 'bombardment of 2708' } },
  events: [
    {
      type: 'DiceRolled',
      data: {
        purpose: 'bombardment of 2708',
        dice: '3d6+1',
        rolls: [
          { sides: 6, value: 1 },
          { sides: 6, value: 3 },
          { sides: 6, value: 2 },
        ],
        modifier: 1,
        total: 7,
      },
    },
  ],
  dice: [
    { sides: 6, value: 1 },
    { sides: 6, value: 3 },
    { sides: 6, value: 2 },
  ],
  recordedAt: '2026-11-23T20:14:05.120Z',
  kid: KID,
  prevHash: hex('728f10bc'),
  hash: hex('dc51b95a'),
  signature: SIGNATURE,
};

const createCommit = {
  gameId: GAME_ID,
  seq: 1,
  commandId: 'create',
  actor: 'organizer',
  command: { type: 'CreateGame', payload: { ruleset: 'dice', title: 'Club night, game 4' } },
  events: [{ type: 'GameCreated', data: { ruleset: 'dice', sides: ['player1', 'player2'], options: { sides: ['player1', 'player2'] }, commitment: COMMITMENT } }],
  dice: [],
  recordedAt: '2026-11-23T20:12:40.002Z',
  kid: KID,
  prevHash: '0'.repeat(64),
  hash: hex('9101992a'),
  signature: SIGNATURE,
};

const entropyCommit = {
  gameId: GAME_ID,
  seq: 2,
  commandId: 'entropy-1',
  actor: 'player1',
  command: { type: 'ContributeEntropy', payload: { entropy: 'alpha' } },
  events: [{ type: 'EntropyContributed', data: { by: 'player1', entropy: 'alpha' } }],
  dice: [],
  recordedAt: '2026-11-23T20:13:02.811Z',
  kid: KID,
  prevHash: hex('9101992a'),
  hash: hex('728f10bc'),
  signature: SIGNATURE,
};

const reissueCommit = {
  gameId: GAME_ID,
  seq: 4,
  commandId: 'token-k-1x9z2m',
  actor: 'organizer',
  command: { type: 'ReissueToken', payload: { role: 'player2', tokenId: 'k-1x9z2m' } },
  events: [{ type: 'TokenReissued', data: { role: 'player2', tokenId: 'k-1x9z2m' } }],
  dice: [],
  recordedAt: '2026-11-23T20:20:31.500Z',
  kid: KID,
  prevHash: hex('dc51b95a'),
  hash: hex('5e0b77d1'),
  signature: SIGNATURE,
};

const revokeCommit = {
  ...reissueCommit,
  commandId: 'revoke-2kq81c',
  command: { type: 'RevokeToken', payload: { role: 'player2' } },
  events: [{ type: 'TokenRevoked', data: { role: 'player2' } }],
};

export const commandAccepted = { version: 3, commit: rollCommit };

/** A beacon game's roll: pending (202), then revealed by the server. */
const pendingCommit = {
  ...rollCommit,
  events: [{ type: 'BeaconRollPending', data: { round: 28142161, roundAt: '2026-11-23T20:14:09.000Z' } }],
  dice: [],
};
const revealCommit = {
  ...rollCommit,
  seq: 4,
  commandId: 'beacon/3',
  actor: 'server',
  command: { type: 'RevealBeacon', payload: { pending: 3, round: 28142161, signature: hex('a5d07c00').repeat(2).slice(0, 96) } },
  events: rollCommit.events,
  recordedAt: '2026-11-23T20:14:09.412Z',
  prevHash: hex('dc51b95a'),
  hash: hex('3b8e0f42'),
};
export const commandPending = { version: 3, commit: pendingCommit, beacon: { chain: 'quicknet', round: 28142161, roundAt: '2026-11-23T20:14:09.000Z' } };
export const commandPendingText = '#3 player1 Roll waits for drand round 28142161 (2026-11-23T20:14:09.000Z) [dc51b95a]\n';
export const commandRevealed = { version: 4, commit: pendingCommit, reveal: revealCommit };
export const commandText = '#3 player1 Roll "bombardment of 2708": 3d6+1 = 1 3 2 +1 = 7 [dc51b95a]\n';

export const eventsPage = { gameId: GAME_ID, version: 3, commits: [createCommit, entropyCommit, rollCommit] };
export const eventsText = [
  '#1 organizer CreateGame dice: player1 vs player2, commitment b74d4810 [9101992a]',
  '#2 player1 ContributeEntropy entropy "alpha" [728f10bc]',
  '#3 player1 Roll "bombardment of 2708": 3d6+1 = 1 3 2 +1 = 7 [dc51b95a]',
  '',
].join('\n');

export const gameView = {
  gameId: GAME_ID,
  ruleset: 'dice',
  title: 'Club night, game 4',
  sides: ['player1', 'player2'],
  version: 3,
  sealed: false,
  commitment: COMMITMENT,
  public: false,
  entropy: { contributions: 1, locked: true },
  state: { rolls: 1, lastRoll: { purpose: 'bombardment of 2708', dice: '3d6+1', total: 7 }, toMove: 'player2' },
  role: 'player1',
  clock: {
    toMove: 'player2',
    since: '2026-11-23T20:14:02.500Z',
    asOf: '2026-11-23T20:15:00.000Z',
    sides: { player1: { usedSeconds: 842.5 }, player2: { usedSeconds: 57.5 } },
    timeControl: { perMoveSeconds: 86400 },
    overdue: [],
  },
  abandonedAt: '2027-02-20T19:12:40.118Z',
};

export const clock = gameView.clock;

const publicKey = {
  kty: 'OKP',
  crv: 'Ed25519',
  x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
  kid: KID,
  use: 'sig',
  alg: 'EdDSA',
  fingerprint: 'ed25519:kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
  status: 'current',
};

export const keys = { keys: [publicKey], log: [] };

export const head = { type: 'GameHead', gameId: GAME_ID, seq: 3, lastHash: hex('dc51b95a'), sealed: false, at: '2026-11-23T20:15:00.000Z', kid: KID, hash: hex('61c0ffee'), signature: SIGNATURE };

export const exportBundle = { gameId: GAME_ID, ruleset: 'dice', commitment: COMMITMENT, commits: [createCommit, entropyCommit, rollCommit], keys: { keys: [publicKey] }, keyLog: [], head };

export const verification = { ok: true, checkedCommits: 3, checkedDice: 3, sealed: false, failures: [] };

export const evaluateRequest = {
  dice: { summary: 'Roll with your own dice (dice)', value: { procedure: 'roll', input: { dice: '2d6+1' }, dice: [6, 5] } },
  france44: {
    summary: 'A France 1944 combat, fresh dice',
    value: {
      procedure: 'combat',
      input: { kind: 'set-piece', attackers: [{ strength: 6 }], defenders: [{ strength: 3 }], attackerMorale: 4, defenderMorale: 3, terrainMoraleModifiers: [1] },
    },
  },
};
export const evaluateResult = {
  result: { total: 12, rolls: [6, 5] },
  breakdown: { dice: '2d6+1', modifier: 1, text: '6 5 +1 = 12' },
  dice: [
    { sides: 6, value: 6 },
    { sides: 6, value: 5 },
  ],
};

export const viewerCreated = { viewerId: 'v-2kq81c', token: token('View'), label: 'club stream' };
export const viewerList = {
  gameId: GAME_ID,
  viewers: [
    { viewerId: 'v-2kq81c', label: 'club stream', createdAt: '2026-11-23T19:05:00.000Z', revoked: false },
    { viewerId: 'v-9d0e3a', createdAt: '2026-11-23T19:20:00.000Z', revoked: true },
  ],
};

export const subscriptionRequest = {
  webhook: { summary: 'a signed webhook, one POST per commit', value: { kind: 'webhook', url: 'https://hooks.example.org/arbiter' } },
  discord: { summary: "a Discord channel's webhook, one post per turn", value: { kind: 'discord', url: 'https://discord.com/api/webhooks/1234567890/abcDEF', digest: 'turn' } },
  email: { summary: 'e-mail, a digest every hour (after confirmation)', value: { kind: 'email', address: 'anna@example.org', digest: { everyMinutes: 60 } } },
};
export const subscriptionCreated = { subscriptionId: 's-1x9k2m4p', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwKoLrIv1ZBjI=', status: 'active' };
export const subscriptionList = {
  gameId: GAME_ID,
  subscriptions: [
    { subscriptionId: 's-1x9k2m4p', kind: 'webhook', owner: 'organizer', target: 'https://hooks.example.org/…', digest: 'commit', status: 'active', createdAt: '2026-11-23T19:05:00.000Z', deadLetters: [] },
    {
      subscriptionId: 's-7qa0vz3c',
      kind: 'discord',
      owner: 'player1',
      target: 'https://discord.com/…',
      digest: 'turn',
      status: 'active',
      createdAt: '2026-11-23T19:06:00.000Z',
      deadLetters: [{ seq: 4, at: '2026-11-23T19:30:12.000Z', error: 'https://discord.com answered 404' }],
    },
  ],
};

export const tournamentSubscriptionList = {
  tournamentId: TOURNAMENT_ID,
  subscriptions: [{ subscriptionId: 's-3m8w1k0q', kind: 'slack', owner: 'tournament', target: 'https://hooks.slack.com/…', digest: 'turn', status: 'active', createdAt: '2026-11-23T19:01:00.000Z', deadLetters: [] }],
};

export const tournamentCreated = { tournamentId: TOURNAMENT_ID, name: 'Club championship 2026, round 1', createdAt: '2026-11-23T19:00:00.000Z', token: token('Tour') };
export const tournamentListing = {
  tournamentId: TOURNAMENT_ID,
  name: 'Club championship 2026, round 1',
  createdAt: '2026-11-23T19:00:00.000Z',
  games: [{ gameId: GAME_ID, ruleset: 'dice', title: 'Club night, game 4', sides: ['player1', 'player2'], version: 3, sealed: false, toMove: 'player2', overdue: [], head }],
  // The cursor of the next page (null on the last one; RapiDoc cannot draw a null example here).
  next: GAME_ID,
};
const tournamentHead = { type: 'TournamentHead', tournamentId: TOURNAMENT_ID, games: [{ gameId: GAME_ID, head: head.hash }], at: '2026-11-23T23:00:00.000Z', kid: KID, hash: hex('7e4d0c11'), signature: SIGNATURE };
/** The lines of a tournament export, each a JSON document. */
export const tournamentExportLines = {
  header: {
    summary: 'The first line',
    value: {
      format: 'arbiter-tournament-export/1',
      tournamentId: TOURNAMENT_ID,
      name: 'Club championship 2026, round 1',
      exportedAt: '2026-11-23T23:00:00.000Z',
      games: 1,
      tournamentHead,
      keys: { keys: keys.keys },
      keyLog: [],
    },
  },
  game: { summary: 'Each line after it: one game', value: exportBundle },
};

export const tokenReissued = { gameId: GAME_ID, role: 'player2', token: token('New2'), version: 4, commit: reissueCommit };
export const tokenRevoked = { gameId: GAME_ID, role: 'player2', version: 4, commit: revokeCommit };

/** One error example per code, in the words the service uses. */
export const ERROR_EXAMPLES: Record<ErrorCode, { message: string; details?: Record<string, unknown> }> = {
  invalid_request: { message: 'Invalid request: `options.sides` needs 2 to 8 items.', details: { issues: [{ field: 'options.sides', message: 'needs 2 to 8 items' }] } },
  insufficient_dice: { message: 'This needs at least 2 dice.', details: { needed: 2 } },
  unauthenticated: { message: 'A bearer token of this game is needed (Authorization: Bearer <token>).' },
  forbidden: { message: 'The player1 side may not send Seal.' },
  not_found: { message: 'No such game.' },
  version_conflict: { message: 'The game is at version 13, not the expected one.', details: { currentVersion: 13 } },
  game_sealed: { message: 'This game is sealed: it accepts no more commands.' },
  game_not_sealed: { message: 'Dice statistics are shown once the organizer seals the game: while it is played, they would only feed suspicion on too few rolls.' },
  idempotency_key_in_use: { message: 'Another request with this Idempotency-Key is creating its game right now. Send the same request again in a moment: it answers that game.' },
  idempotency_key_reused: { message: 'This Idempotency-Key created a game from a different request. Use a new key for a new game.', details: { gameId: 'g-7rT2kQ9xLmN4pW8vYc3Z' } },
  command_id_reused: { message: 'This commandId was already used, at seq 3, for a different command. Use a new commandId for a new command.', details: { seq: 3 } },
  payload_too_large: { message: 'A request body may be at most 65536 bytes.', details: { maxBytes: 65536 } },
  rule_violation: { message: 'No game turn has started yet: send StartTurn first.', details: { rule: 'france44: commands of a game turn need a started turn (ruling)' } },
  entropy_locked: { message: 'Entropy can only be added before the first die of the game is rolled.' },
  beacon_pending: {
    message: 'A roll waits for drand round 28142161 (published at 2026-11-23T19:12:45.000Z); the game takes no other command until it is revealed. Try again in a few seconds.',
    details: { round: 28142161, roundAt: '2026-11-23T19:12:45.000Z' },
  },
  beacon_unavailable: {
    message: 'This server fetches no drand beacons, so it cannot run beacon games: its operator names drand relays with ARBITER_DRAND_RELAYS. Create the game without "randomness".',
  },
  subscription_refused: {
    message: 'This game already has 20 subscriptions, as many as a game may have: end one first.',
  },
  game_abandoned: {
    message:
      'This game was abandoned: it had no command for 90 days after 2026-08-01T18:04:11.520Z and was not sealed, so it takes no more commands and is being deleted. Sealed games and tournament games are kept.',
    details: { lastCommandAt: '2026-08-01T18:04:11.520Z', afterDays: 90 },
  },
  creation_quota: {
    message: "This address has created 60 games or tournaments this hour (a tournament's games count for the address that created the tournament), the most one address may. Try again in 23 minutes.",
    details: { perHour: 60, retryAfterSeconds: 1380 },
  },
  long_poll_full: {
    message: 'As many long polls wait now as this server holds: poll again in 5 seconds, or follow the game over the push socket (docs/push.md).',
    details: { retryAfterSeconds: 5 },
  },
  unavailable: { message: 'The service is briefly unavailable. Try again shortly with the same commandId: if the command was stored, you get it back; it is never applied twice.' },
  method_not_allowed: { message: 'PUT is not allowed here.' },
  internal_error: { message: 'Something went wrong on our side. Retrying with the same commandId is safe: a command is never applied twice.' },
};
