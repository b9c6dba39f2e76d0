// STAND-INS, until issue 33's parts B (clock), C (subscriptions) and A (Void) are merged: the
// routes the web app calls, answered inside the browser page per the team contract
// (/work/notes/design33.md), everything else passed on to the real local server. One
// function, so that the tests switch to the real server by dropping it.
import type { Browser, Page, Route, WebSocketRoute } from 'playwright-core';
import * as z from 'zod';
import { jsonSchema } from '../../functions/http/catalogue';

export interface ClockAnswer {
  toMove: string | null;
  since: string;
  asOf?: string;
  sides: Record<string, { usedSeconds: number }>;
  timeControl?: { perMoveSeconds?: number; totalSeconds?: number };
  overdue?: string[];
}

export interface StoodInSubscription {
  subscriptionId: string;
  kind: string;
  owner: string;
  target: string;
  digest?: unknown;
  status: string;
  createdAt: string;
  deadLetters: { seq: number; at: string; error: string }[];
}

export interface Issue33StandIns {
  /** GET /games/{id}/clock answers this; undefined: 404, as a server without clocks. */
  clock?: ClockAnswer;
  clockReads: number;
  subscriptions: StoodInSubscription[];
  /** Every body POSTed to /subscriptions, in order. */
  posted: Record<string, unknown>[];
  deleted: string[];
  /** Commits the events pages mark voided (part A's `voidedBy`), by seq. */
  voidedBy: Map<number, { seq: number; reason: string }>;
  /** A message pushed to the page over its push socket, as the server would send one. */
  pushToPage(message: unknown): void;
  /** With `tournamentClocks`: each listed game's `overdue` (part B's listing field), by gameId; [] when not named. */
  overdue: Map<string, string[]>;
  /** Void and Ruling commands POSTed (with `organizerCommands`), answered 201 and not stored. */
  organizerCommands: Record<string, unknown>[];
}

/** Part A's organizer commands as the catalogue will list them (design33.md). */
const ORGANIZER_COMMANDS = [
  { type: 'Void', description: 'Voids a commit: it stays in the chain, its dice kept; the rules treat it as the ruleset says.', schema: z.strictObject({ seq: z.int().min(2).describe('the commit voided'), reason: z.string().min(1).max(500).describe('why, in words') }) },
  { type: 'Ruling', description: 'Records what the organizer decided.', schema: z.strictObject({ text: z.string().min(1).max(2000).describe('the ruling'), concerning: z.array(z.int().min(1)).max(50).describe('the commits it concerns') }) },
].map(({ type, description, schema }) => ({ type, description, who: { sides: 'none', organizer: true, text: 'the organizer only' }, payload: jsonSchema(schema), component: `Dice${type}` }));

const error = (route: Route, status: number, code: string, message: string, details?: unknown) =>
  route.fulfill({ status, json: { error: { code, message, ...(details ? { details } : {}) } } });

/** "https://hooks.example.org/…": the origin, the path masked (the contract's listing). */
const maskUrl = (url: string) => `${new URL(url).origin}/…`;
const maskAddress = (address: string) => `${address[0]}***${address.slice(address.indexOf('@'))}`;

/**
 * Installs the stand-ins on `page` before it opens the app. `owners` names who a token is
 * ('organizer' or a side): an owner lists its own subscriptions, the organizer all.
 */
export async function standInIssue33Api(page: Page, owners: Record<string, string>, options: { organizerCommands?: boolean; tournamentClocks?: boolean } = {}): Promise<Issue33StandIns> {
  let socket: WebSocketRoute | undefined;
  const state: Issue33StandIns = {
    clockReads: 0,
    subscriptions: [],
    posted: [],
    deleted: [],
    voidedBy: new Map(),
    organizerCommands: [],
    overdue: new Map(),
    pushToPage(message) {
      if (!socket) throw new Error('the page has no push socket open');
      socket.send(JSON.stringify(message));
    },
  };
  let next = 0;
  const ownerOf = (route: Route) => owners[(route.request().headers().authorization ?? '').replace(/^Bearer /, '')];

  await page.route(/\/games\/[^/]+\/clock$/, async (route) => {
    state.clockReads++;
    if (!state.clock) return error(route, 404, 'not_found', 'No such route.');
    return route.fulfill({ json: state.clock });
  });

  await page.route(/\/games\/[^/]+\/subscriptions(\/[^/?]+)?$/, async (route) => {
    const owner = ownerOf(route);
    if (!owner) return error(route, 401, 'unauthenticated', 'A bearer token of this game is needed.');
    const method = route.request().method();
    const id = route.request().url().match(/\/subscriptions\/([^/?]+)$/)?.[1];
    if (method === 'GET' && !id) return route.fulfill({ json: { subscriptions: state.subscriptions.filter((s) => owner === 'organizer' || s.owner === owner) } });
    if (method === 'DELETE' && id) {
      const index = state.subscriptions.findIndex((s) => s.subscriptionId === decodeURIComponent(id) && (owner === 'organizer' || s.owner === owner));
      if (index < 0) return error(route, 404, 'not_found', 'No such subscription.');
      state.deleted.push(state.subscriptions[index].subscriptionId);
      state.subscriptions.splice(index, 1);
      return route.fulfill({ status: 204 });
    }
    if (method !== 'POST' || id) return error(route, 405, 'method_not_allowed', 'Not here.');
    const body = route.request().postDataJSON() as Record<string, unknown>;
    state.posted.push(body);
    const kind = String(body.kind);
    const subscriptionId = `sub_${++next}`;
    const createdAt = new Date().toISOString();
    if (kind === 'email') {
      const address = typeof body.address === 'string' ? body.address : '';
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(address)) return error(route, 400, 'invalid_request', 'Invalid request: `address` must be an e-mail address.', { issues: [{ field: 'address', message: 'must be an e-mail address' }] });
      state.subscriptions.push({ subscriptionId, kind, owner, target: maskAddress(address), digest: body.digest ?? 'commit', status: 'confirming', createdAt, deadLetters: [] });
      return route.fulfill({ status: 201, json: { subscriptionId, status: 'confirming' } });
    }
    const url = typeof body.url === 'string' ? body.url : '';
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {}
    if (!parsed || parsed.protocol !== 'https:' || /^(10\.|127\.|192\.168\.|localhost$)/.test(parsed.hostname)) {
      return error(route, 400, 'invalid_request', 'Invalid request: `url` must be an https URL to a public address.', { issues: [{ field: 'url', message: 'must be an https URL to a public address' }] });
    }
    state.subscriptions.push({ subscriptionId, kind, owner, target: maskUrl(url), status: 'active', createdAt, deadLetters: [] });
    const secret = kind === 'webhook' ? `whsec_${Buffer.from(`stand-in secret ${subscriptionId} 32 bytes long`).toString('base64')}` : undefined;
    return route.fulfill({ status: 201, json: { subscriptionId, status: 'active', ...(secret ? { secret } : {}) } });
  });

  await page.route(/\/games\/[^/]+\/events\?/, async (route) => {
    if (!state.voidedBy.size || (route.request().headers().accept ?? '').includes('text/plain')) return route.fallback();
    const response = await route.fetch();
    const json = (await response.json()) as { commits?: { seq: number; voidedBy?: unknown }[] };
    for (const commit of json.commits ?? []) {
      const by = state.voidedBy.get(commit.seq);
      if (by) commit.voidedBy = by;
    }
    return route.fulfill({ response, json });
  });

  if (options.organizerCommands) {
    await page.route(/\/rulesets$/, async (route) => {
      const response = await route.fetch();
      const json = (await response.json()) as { rulesets: { commands: unknown[] }[] };
      for (const ruleset of json.rulesets) ruleset.commands.push(...ORGANIZER_COMMANDS);
      return route.fulfill({ response, json });
    });
    await page.route(/\/games\/[^/]+\/commands$/, async (route) => {
      const body = route.request().postDataJSON() as { type?: string };
      if (route.request().method() !== 'POST' || !ORGANIZER_COMMANDS.some((c) => c.type === body.type)) return route.fallback();
      state.organizerCommands.push(body);
      return route.fulfill({ status: 201, json: { version: 100, commit: { seq: 100, events: [] } } });
    });
  }

  if (options.tournamentClocks) {
    await page.route(/\/tournaments\/[^/?]+(\?after=[^/]*)?$/, async (route) => {
      if (route.request().method() !== 'GET') return route.fallback();
      const response = await route.fetch();
      const json = (await response.json()) as { games?: { gameId: string; overdue?: string[] }[] };
      for (const game of json.games ?? []) game.overdue = state.overdue.get(game.gameId) ?? [];
      return route.fulfill({ response, json });
    });
  }

  await page.routeWebSocket(/\/push$/, (ws) => {
    socket = ws;
    ws.connectToServer();
  });
  return state;
}

/**
 * For every page of the web tests (browserSession.ts), in every context of `browser`: while the
 * local server has no route for GET /games/{id}/clock or /games/{id}/subscriptions, they answer
 * 204 (the page then shows no clock and an empty list) instead of a 404 that Chromium logs as a
 * console error. Once parts B and C land, the server answers them and this passes everything
 * through: drop it at merge.
 */
export function standInAbsentIssue33Routes(browser: Browser): void {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await context.route(/\/games\/[^/]+\/(clock|subscriptions)$/, async (route) => {
      const response = await route.fetch();
      if (response.status() !== 404 || !(await response.text()).includes('No route')) return route.fulfill({ response });
      return route.fulfill({ status: 204 });
    });
    return context;
  };
}
