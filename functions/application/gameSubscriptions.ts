import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { ORGANIZER } from '../../domain/ruleset';
import type { SeedVault } from '../ports/seedVault';
import type { GameState } from '../../domain/game/gameState';
import type { DeadLetter, Digest, SubscriptionGrant, SubscriptionKind, SubscriptionRecord, SubscriptionScope, SubscriptionStore } from '../ports/subscriptionStore';
import type { ConfirmationSender } from '../notify/channel';
import { grantActs } from '../notify/noticeSource';
import { RateLimit } from '../notify/rateLimit';
import { openTarget, sealTarget, type TargetSecrets } from '../notify/sealedTarget';
import { refusedUrl } from '../notify/targetCheck';
import { newWebhookSecret } from '../notify/webhookSignature';
import type { ActingToken, Credentials } from './credentials';
import { ApplicationError, invalidRequest, notFound } from './errors';
import type { GameRepository } from './gameRepository';
import { KeyedLock } from './keyedLock';
import { hashMatches, presentedHash, randomId, sha256Hex } from './tokens';
import type { TournamentTokens } from './tournamentTokens';
import { fieldIssues, IN_WORDS } from './zodIssues';

/** What an e-mail link's page names: the game's (or the tournament's) title and id. */
export interface LinkedGame {
  gameTitle: string;
  gameId: string;
}

type Created = { subscriptionId: string; secret?: string; status: 'active' | 'confirming' };

/** Subscriptions one game may have; one more is refused (422). */
export const SUBSCRIPTIONS_PER_GAME = 20;
/** Subscriptions one owner (a side, the organizer, the tournament) may have in one game. */
export const SUBSCRIPTIONS_PER_OWNER = 5;
/**
 * Confirmation mails one address may be sent, across all games, in 24 hours. Counted in this
 * process: on AWS each Lambda container counts its own (docs/notifications.md "Limits").
 */
export const CONFIRMATIONS_PER_ADDRESS = { limit: 3, windowMs: 24 * 3600_000 } as const;

export const SubscriptionRequest = z.strictObject({
  kind: z.enum(['webhook', 'discord', 'slack', 'email']).describe('how to be told'),
  url: z.string().max(2048).optional().describe('webhook, discord, slack: where to POST (https)'),
  address: z.email().max(254).optional().describe('email: the address, which confirms by a link first'),
  digest: z
    .union([z.literal('commit'), z.literal('turn'), z.strictObject({ everyMinutes: z.int().min(5).max(1440) })])
    .optional()
    .describe('one notification per commit (default), per turn, or every N minutes'),
});

/** A subscription as GET …/subscriptions lists it: never its secret, URL path or full address. */
export interface SubscriptionListing {
  subscriptionId: string;
  kind: SubscriptionKind;
  owner: string;
  target: string;
  digest: Digest;
  status: 'active' | 'confirming';
  createdAt: string;
  deadLetters: DeadLetter[];
}

export interface SubscriptionsDeps {
  store: SubscriptionStore;
  vault: SeedVault;
  /** ARBITER_NOTIFY_ALLOW_LOOPBACK=1. */
  allowLoopback: boolean;
  /** Set when ARBITER_SMTP_URL is: e-mail subscriptions ask for confirmation through it. */
  confirmations?: ConfirmationSender;
  /** The setting that turns e-mail on, named when an e-mail subscription is refused (ARBITER_SMTP_URL by default; on AWS ARBITER_SES_FROM). */
  mailSetting?: string;
  /** The links of an e-mail subscription, from its id and code. */
  links: (subscriptionId: string, code: string) => { confirmUrl: string; unsubscribeUrl: string };
  /** A subscription was made or confirmed: the engine may catch the game up. */
  changed?: (gameId: string) => void;
  /** Confirmation mails per lower-cased address; CONFIRMATIONS_PER_ADDRESS by default. */
  confirmationLimit?: RateLimit;
}

/** `https://hooks.example.org/…`: the origin and a masked path (a Discord or Slack path is the credential). */
export const maskedUrl = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname === '/' ? '/' : '/…'}`;
};

/** `a***@example.org`. */
export const maskedAddress = (address: string) => {
  const at = address.lastIndexOf('@');
  return `${address.slice(0, 1)}***${address.slice(at)}`;
};

const codeHash = sha256Hex;

/** The checks a subscription's target gets before it is stored: 400 naming the field. */
function checkedTarget(kind: SubscriptionKind, url: string | undefined, address: string | undefined, allowLoopback: boolean): { url?: string; address?: string } {
  if (kind === 'email') {
    if (!address) throw invalidRequest([{ field: 'address', message: 'is needed for an e-mail subscription' }]);
    if (url !== undefined) throw invalidRequest([{ field: 'url', message: 'is not taken by an e-mail subscription (use address)' }]);
    return { address };
  }
  if (!url) throw invalidRequest([{ field: 'url', message: `is needed for a ${kind} subscription` }]);
  if (address !== undefined) throw invalidRequest([{ field: 'address', message: `is taken by e-mail subscriptions only, not by ${kind}` }]);
  const refused = refusedUrl(url, allowLoopback);
  if (refused) throw invalidRequest([{ field: 'url', message: refused }]);
  const { pathname } = new URL(url);
  if (kind === 'discord' && !pathname.startsWith('/api/webhooks/')) throw invalidRequest([{ field: 'url', message: 'must be a Discord webhook URL (…/api/webhooks/…)' }]);
  if (kind === 'slack' && !pathname.startsWith('/services/')) throw invalidRequest([{ field: 'url', message: 'must be a Slack incoming-webhook URL (…/services/…)' }]);
  return { url };
}

/**
 * A game's subscriptions (POST/GET/DELETE /games/{id}/subscriptions): made by the organizer,
 * a side for itself, or the game's tournament. The owner lists and ends its own; the
 * organizer and the tournament, all of them.
 */
export class GameSubscriptions {
  /** A scope's count is checked and its new record added one at a time (in this process). */
  private readonly scopeLocks = new KeyedLock();
  private readonly confirmationLimit: RateLimit;

  constructor(
    private readonly games: GameRepository,
    private readonly credentials: Credentials,
    private readonly tournaments: TournamentTokens,
    private readonly deps: SubscriptionsDeps,
    private readonly now: () => string,
  ) {
    this.confirmationLimit = deps.confirmationLimit ?? new RateLimit(CONFIRMATIONS_PER_ADDRESS.limit, CONFIRMATIONS_PER_ADDRESS.windowMs);
  }

  async subscribe(gameId: string, token: string | undefined, body: unknown): Promise<Created> {
    const game = await this.games.load(gameId);
    const acting = await this.credentials.acting(game, token);
    return this.create({ gameId }, ownerOf(acting), acting.by, body, { title: game.state.title, id: gameId, afterSeq: game.state.version, state: game.state });
  }

  /** POST /tournaments/{id}/subscriptions: every game of the tournament, those created later too. */
  async subscribeTournament(tournamentId: string, token: string | undefined, body: unknown): Promise<Created> {
    const tournament = await this.tournaments.authenticate(tournamentId, token);
    return this.create({ tournamentId }, 'tournament', 'tournament', body, { title: tournament.name, id: tournamentId });
  }

  async listTournament(tournamentId: string, token: string | undefined): Promise<{ tournamentId: string; subscriptions: SubscriptionListing[] }> {
    await this.tournaments.authenticate(tournamentId, token);
    return { tournamentId, subscriptions: await this.listed(await this.deps.store.inScope({ tournamentId })) };
  }

  async unsubscribeTournament(tournamentId: string, token: string | undefined, subscriptionId: string): Promise<void> {
    await this.tournaments.authenticate(tournamentId, token);
    const record = await this.deps.store.get(subscriptionId);
    if (!record || !('tournamentId' in record.scope) || record.scope.tournamentId !== tournamentId) throw notFound(`This tournament has no subscription ${JSON.stringify(subscriptionId)}.`);
    await this.deps.store.remove(subscriptionId);
  }

  private async create(scope: SubscriptionScope, owner: string, grantedBy: SubscriptionGrant, body: unknown, about: { title: string; id: string; afterSeq?: number; state?: GameState }): Promise<Created> {
    const parsed = SubscriptionRequest.safeParse(body ?? {}, IN_WORDS);
    if (!parsed.success) throw invalidRequest(fieldIssues(parsed.error));
    const { kind, digest = 'commit' } = parsed.data;
    const target = checkedTarget(kind, parsed.data.url, parsed.data.address, this.deps.allowLoopback);
    if (kind === 'email' && !this.deps.confirmations) {
      throw new ApplicationError(422, 'subscription_refused', `This server sends no e-mail: its ${this.deps.mailSetting ?? 'ARBITER_SMTP_URL'} setting is not set.`);
    }
    const { store } = this.deps;
    const where = 'gameId' in scope ? 'game' : 'tournament';
    const scopeKey = 'gameId' in scope ? `game\n${scope.gameId}` : `tournament\n${scope.tournamentId}`;
    const { record, secrets, status } = await this.scopeLocks.run(scopeKey, async () => {
      const existing = about.state ? await this.live(await store.inScope(scope), about.state) : await store.inScope(scope);
      if (existing.length >= SUBSCRIPTIONS_PER_GAME) {
        throw new ApplicationError(422, 'subscription_refused', `This ${where} already has ${SUBSCRIPTIONS_PER_GAME} subscriptions, as many as a ${where} may have: end one first.`);
      }
      if ('gameId' in scope && existing.filter((other) => other.owner === owner).length >= SUBSCRIPTIONS_PER_OWNER) {
        throw new ApplicationError(422, 'subscription_refused', `You already have ${SUBSCRIPTIONS_PER_OWNER} subscriptions in this game, as many as one player or organizer may have: end one first.`);
      }
      if (target.address) await this.checkConfirmationAllowed(target.address, existing);
      const made = await this.record(scope, kind, owner, grantedBy, target, digest, about.afterSeq);
      await store.add(made.record);
      return made;
    });
    if (kind === 'email') await this.deps.confirmations!.send(target.address!, { gameTitle: about.title, gameId: about.id, ...this.deps.links(record.subscriptionId, secrets.code!) });
    return { subscriptionId: record.subscriptionId, ...(secrets.secret ? { secret: secrets.secret } : {}), status };
  }

  /**
   * A confirmation mail goes to an address at most CONFIRMATIONS_PER_ADDRESS times a day, and
   * never while one sent for this game waits: subscribing and ending again cannot fill a stranger's mailbox.
   */
  private async checkConfirmationAllowed(address: string, existing: readonly SubscriptionRecord[]): Promise<void> {
    const key = address.toLowerCase();
    for (const other of existing) {
      if (other.kind !== 'email' || other.status !== 'confirming') continue;
      const opened = await openTarget(this.deps.vault, other.subscriptionId, other.sealedTarget);
      if (opened.address?.toLowerCase() === key) {
        throw new ApplicationError(422, 'subscription_refused', 'A confirmation mail for this address is already waiting to be confirmed: follow its link, or end that subscription first.');
      }
    }
    const waitMs = this.confirmationLimit.take([key], Date.parse(this.now()));
    if (waitMs > 0) {
      throw new ApplicationError(
        422,
        'subscription_refused',
        `This address was sent ${CONFIRMATIONS_PER_ADDRESS.limit} confirmation mails in the last 24 hours, as many as one address may be sent: try again in ${hours(waitMs)}.`,
      );
    }
  }

  private async record(scope: SubscriptionScope, kind: SubscriptionKind, owner: string, grantedBy: SubscriptionGrant, target: { url?: string; address?: string }, digest: Digest, afterSeq: number | undefined) {
    const subscriptionId = randomId('s');
    const secrets: TargetSecrets = { ...target };
    if (kind === 'webhook') secrets.secret = newWebhookSecret();
    if (kind === 'email') secrets.code = randomBytes(24).toString('base64url');
    const status: Created['status'] = kind === 'email' ? 'confirming' : 'active';
    const record: SubscriptionRecord = {
      subscriptionId,
      scope,
      kind,
      owner,
      grantedBy,
      sealedTarget: await sealTarget(this.deps.vault, subscriptionId, secrets),
      maskedTarget: target.url ? maskedUrl(target.url) : maskedAddress(target.address!),
      digest,
      status,
      ...(secrets.code ? { codeHash: codeHash(secrets.code) } : {}),
      createdAt: this.now(),
      ...(afterSeq !== undefined ? { afterSeq } : {}),
    };
    return { record, secrets, status };
  }

  private listed(records: readonly SubscriptionRecord[]): Promise<SubscriptionListing[]> {
    return Promise.all(
      records.map(async (record) => ({
        subscriptionId: record.subscriptionId,
        kind: record.kind,
        owner: record.owner,
        target: record.maskedTarget,
        digest: record.digest,
        status: record.status,
        createdAt: record.createdAt,
        deadLetters: await this.deps.store.deadLetters(record.subscriptionId),
      })),
    );
  }

  async list(gameId: string, token: string | undefined): Promise<{ gameId: string; subscriptions: SubscriptionListing[] }> {
    const game = await this.games.load(gameId);
    const acting = await this.credentials.acting(game, token);
    const records = (await this.live(await this.deps.store.inScope({ gameId }), game.state)).filter((record) => holds(acting, record));
    return { gameId, subscriptions: await this.listed(records) };
  }

  async unsubscribe(gameId: string, token: string | undefined, subscriptionId: string): Promise<void> {
    const game = await this.games.load(gameId);
    const acting = await this.credentials.acting(game, token);
    const found = await this.deps.store.get(subscriptionId);
    const inGame = found && 'gameId' in found.scope && found.scope.gameId === gameId;
    const [record] = inGame ? await this.live([found], game.state) : [];
    // Another owner's subscription is as none: its existence is not told.
    if (!record || !holds(acting, record)) throw notFound(`This game has no subscription ${JSON.stringify(subscriptionId)} of yours.`);
    await this.deps.store.remove(subscriptionId);
  }

  /** The records whose owner's token still acts on the game; the others (revoked, reissued) are ended here. */
  private async live(records: readonly SubscriptionRecord[], state: GameState): Promise<SubscriptionRecord[]> {
    const ended = records.filter((record) => !grantActs(record, state));
    for (const record of ended) await this.deps.store.remove(record.subscriptionId);
    return records.filter((record) => !ended.includes(record));
  }

  /** The game (or tournament) an e-mail's link is about, while the link works; undefined when it does not (its page says so before offering the button). */
  async linkFor(subscriptionId: string, code: string): Promise<LinkedGame | undefined> {
    const record = await this.byCode(subscriptionId, code);
    return record && this.aboutOf(record);
  }

  /** POST /subscriptions/{id}/confirm?code=: the address confirmed; undefined when the code is not this subscription's. */
  async confirm(subscriptionId: string, code: string): Promise<LinkedGame | undefined> {
    const record = await this.byCode(subscriptionId, code);
    const about = record && (await this.aboutOf(record));
    if (!record || !about) return undefined;
    const { scope } = record;
    if ('gameId' in scope) {
      const { state } = await this.games.load(scope.gameId, true);
      // Its subscriber's token was revoked or reissued meanwhile: the link ended with it.
      if ((await this.live([record], state)).length === 0) return undefined;
      // Mail starts with the commits after the confirmation: none of those recorded while it waited.
      if (record.status === 'confirming') await this.deps.store.advance(subscriptionId, scope.gameId, undefined, state.version);
    }
    await this.deps.store.confirm(subscriptionId);
    if ('gameId' in scope) this.deps.changed?.(scope.gameId);
    return about;
  }

  /** POST /subscriptions/{id}/unsubscribe?code=: ended; undefined when the code is not this subscription's. */
  async unsubscribeByCode(subscriptionId: string, code: string): Promise<LinkedGame | undefined> {
    const record = await this.byCode(subscriptionId, code);
    if (!record) return undefined;
    const about = (await this.aboutOf(record)) ?? { gameTitle: '(deleted)', gameId: 'gameId' in record.scope ? record.scope.gameId : record.scope.tournamentId };
    return (await this.deps.store.remove(subscriptionId)) ? about : undefined;
  }

  private async byCode(subscriptionId: string, code: string): Promise<SubscriptionRecord | undefined> {
    const record = await this.deps.store.get(subscriptionId);
    if (!record?.codeHash || !hashMatches(presentedHash(code), record.codeHash)) return undefined;
    return record;
  }

  /** The title and id a link's page names; undefined when the game or tournament is gone. */
  private async aboutOf({ scope }: SubscriptionRecord): Promise<LinkedGame | undefined> {
    if ('tournamentId' in scope) {
      const tournament = await this.tournaments.record(scope.tournamentId);
      return tournament && { gameTitle: tournament.name, gameId: scope.tournamentId };
    }
    try {
      return { gameTitle: (await this.games.load(scope.gameId)).state.title, gameId: scope.gameId };
    } catch (error) {
      if (error instanceof ApplicationError && error.status === 404) return undefined;
      throw error;
    }
  }
}

const hours = (ms: number) => (ms <= 3600_000 ? 'an hour' : `${Math.ceil(ms / 3600_000)} hours`);

/** The tournament's token acts as the organizer: its subscriptions are the tournament's. */
const ownerOf = ({ role, by }: { role: string; by: unknown }) => (by === 'tournament' ? 'tournament' : role);
const seesAll = (owner: string) => owner === ORGANIZER || owner === 'tournament';
const sameGrant = (a: SubscriptionGrant | undefined, b: SubscriptionGrant) => (typeof a === 'object' && typeof b === 'object' ? a.tokenId === b.tokenId : a === b);
/** The organizer and the tournament see and end every subscription; a side, those it made with the token it holds now. */
const holds = (acting: ActingToken, record: SubscriptionRecord) => seesAll(ownerOf(acting)) || (record.owner === ownerOf(acting) && sameGrant(record.grantedBy, acting.by));
