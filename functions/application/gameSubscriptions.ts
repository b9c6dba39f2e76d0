import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { ORGANIZER } from '../../domain/ruleset';
import type { SeedVault } from '../ports/seedVault';
import type { DeadLetter, Digest, SubscriptionKind, SubscriptionRecord, SubscriptionScope, SubscriptionStore } from '../ports/subscriptionStore';
import type { ConfirmationSender } from '../notify/channel';
import { sealTarget, type TargetSecrets } from '../notify/sealedTarget';
import { refusedUrl } from '../notify/targetCheck';
import { newWebhookSecret } from '../notify/webhookSignature';
import type { Credentials } from './credentials';
import { ApplicationError, invalidRequest, notFound } from './errors';
import type { GameRepository } from './gameRepository';
import { hashMatches, presentedHash, randomId, sha256Hex } from './tokens';
import type { TournamentTokens } from './tournamentTokens';
import { fieldIssues, IN_WORDS } from './zodIssues';

type Created = { subscriptionId: string; secret?: string; status: 'active' | 'confirming' };

/** Subscriptions one game may have; one more is refused (422). */
export const SUBSCRIPTIONS_PER_GAME = 20;

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
  constructor(
    private readonly games: GameRepository,
    private readonly credentials: Credentials,
    private readonly tournaments: TournamentTokens,
    private readonly deps: SubscriptionsDeps,
    private readonly now: () => string,
  ) {}

  async subscribe(gameId: string, token: string | undefined, body: unknown): Promise<Created> {
    const game = await this.games.load(gameId);
    const owner = ownerOf(await this.credentials.acting(game, token));
    return this.create({ gameId }, owner, body, { title: game.state.title, id: gameId, afterSeq: game.state.version });
  }

  /** POST /tournaments/{id}/subscriptions: every game of the tournament, those created later too. */
  async subscribeTournament(tournamentId: string, token: string | undefined, body: unknown): Promise<Created> {
    const tournament = await this.tournaments.authenticate(tournamentId, token);
    return this.create({ tournamentId }, 'tournament', body, { title: tournament.name, id: tournamentId });
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

  private async create(scope: SubscriptionScope, owner: string, body: unknown, about: { title: string; id: string; afterSeq?: number }): Promise<Created> {
    const parsed = SubscriptionRequest.safeParse(body ?? {}, IN_WORDS);
    if (!parsed.success) throw invalidRequest(fieldIssues(parsed.error));
    const { kind, digest = 'commit' } = parsed.data;
    const target = checkedTarget(kind, parsed.data.url, parsed.data.address, this.deps.allowLoopback);
    if (kind === 'email' && !this.deps.confirmations) {
      throw new ApplicationError(422, 'subscription_refused', `This server sends no e-mail: its ${this.deps.mailSetting ?? 'ARBITER_SMTP_URL'} setting is not set.`);
    }
    const { store } = this.deps;
    const where = 'gameId' in scope ? 'game' : 'tournament';
    if ((await store.inScope(scope)).length >= SUBSCRIPTIONS_PER_GAME) {
      throw new ApplicationError(422, 'subscription_refused', `This ${where} already has ${SUBSCRIPTIONS_PER_GAME} subscriptions, as many as a ${where} may have: end one first.`);
    }
    const subscriptionId = randomId('s');
    const secrets: TargetSecrets = { ...target };
    if (kind === 'webhook') secrets.secret = newWebhookSecret();
    if (kind === 'email') secrets.code = randomBytes(24).toString('base64url');
    const status = kind === 'email' ? 'confirming' : 'active';
    const record: SubscriptionRecord = {
      subscriptionId,
      scope,
      kind,
      owner,
      sealedTarget: await sealTarget(this.deps.vault, subscriptionId, secrets),
      maskedTarget: target.url ? maskedUrl(target.url) : maskedAddress(target.address!),
      digest,
      status,
      ...(secrets.code ? { codeHash: codeHash(secrets.code) } : {}),
      createdAt: this.now(),
      ...(about.afterSeq !== undefined ? { afterSeq: about.afterSeq } : {}),
    };
    await store.add(record);
    if (kind === 'email') await this.deps.confirmations!.send(target.address!, { gameTitle: about.title, gameId: about.id, ...this.deps.links(subscriptionId, secrets.code!) });
    return { subscriptionId, ...(secrets.secret ? { secret: secrets.secret } : {}), status };
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
    const owner = ownerOf(await this.credentials.acting(game, token));
    const records = (await this.deps.store.inScope({ gameId })).filter((record) => seesAll(owner) || record.owner === owner);
    return { gameId, subscriptions: await this.listed(records) };
  }

  async unsubscribe(gameId: string, token: string | undefined, subscriptionId: string): Promise<void> {
    const game = await this.games.load(gameId);
    const owner = ownerOf(await this.credentials.acting(game, token));
    const record = await this.deps.store.get(subscriptionId);
    const inGame = record && 'gameId' in record.scope && record.scope.gameId === gameId;
    // Another owner's subscription is as none: its existence is not told.
    if (!record || !inGame || !(seesAll(owner) || record.owner === owner)) throw notFound(`This game has no subscription ${JSON.stringify(subscriptionId)} of yours.`);
    await this.deps.store.remove(subscriptionId);
  }

  /** Whether an e-mail's link still works (its page says so before offering the button). */
  async linkWorks(subscriptionId: string, code: string): Promise<boolean> {
    return (await this.byCode(subscriptionId, code)) !== undefined;
  }

  /** POST /subscriptions/{id}/confirm?code=: the address confirmed; false when the code is not this subscription's. */
  async confirm(subscriptionId: string, code: string): Promise<boolean> {
    const record = await this.byCode(subscriptionId, code);
    if (!record) return false;
    const { scope } = record;
    if (record.status === 'confirming' && 'gameId' in scope) {
      // Mail starts with the commits after the confirmation: none of those recorded while it waited.
      const { state } = await this.games.load(scope.gameId, true);
      await this.deps.store.advance(subscriptionId, scope.gameId, undefined, state.version);
    }
    await this.deps.store.confirm(subscriptionId);
    if ('gameId' in scope) this.deps.changed?.(scope.gameId);
    return true;
  }

  /** POST /subscriptions/{id}/unsubscribe?code=: ended; false when the code is not this subscription's. */
  async unsubscribeByCode(subscriptionId: string, code: string): Promise<boolean> {
    if (!(await this.byCode(subscriptionId, code))) return false;
    return this.deps.store.remove(subscriptionId);
  }

  private async byCode(subscriptionId: string, code: string): Promise<SubscriptionRecord | undefined> {
    const record = await this.deps.store.get(subscriptionId);
    if (!record?.codeHash || !hashMatches(presentedHash(code), record.codeHash)) return undefined;
    return record;
  }
}

/** The tournament's token acts as the organizer: its subscriptions are the tournament's. */
const ownerOf = ({ role, by }: { role: string; by: unknown }) => (by === 'tournament' ? 'tournament' : role);
const seesAll = (owner: string) => owner === ORGANIZER || owner === 'tournament';
