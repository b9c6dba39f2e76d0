import { checkAnswer, checkTextLines, type Answer } from './hostileChecks';
import { ORGANIZER, type CommandDriver, type RulesetDriver, type Step, type View } from './hostileDrivers';
import { ordinaryName, payloadSchema, strictMembers, type Catalogue, type Expected } from './hostileExpectations';
import { contextOf, type Findings, type Meta, type Sent } from './hostileFindings';
import { combinedMutations, hostileValuesFor, pathLabel, render, slotsOf, valueAt, type Mutation, type Path } from './hostileMutations';
import { PROTOTYPE_NAMES, printable } from './hostileValues';

/** Seed of the combined cases; change it to explore, keep it to reproduce. */
export const SEED = 20_260_611;
export const COMBINED_PER_SHAPE = 12;

export function seedOf(...parts: string[]): number {
  let h = SEED;
  for (const c of parts.join('/')) h = Math.imul(h ^ c.charCodeAt(0), 16_777_619) >>> 0 || 1;
  return h;
}

/** One game of the run, as the client knows it. */
export interface Game {
  ruleset: string;
  gameId: string;
  organizer: string;
  players: Record<string, string>;
  /** 1 + the commands accepted (201): what the server's version must be. */
  version: number;
  view?: View;
  dirty: boolean;
  lastAccepted: boolean;
  /** False once it cannot be put back in play: its remaining cases are not sent. */
  alive: boolean;
  n: number;
  /** Prototype names used as the commandIds of its first valid steps. */
  protoIds: string[];
  /** Commands stored under a prototype name, retried after the seal. */
  retries: { token: string; body: string; seq: number; type: string }[];
  /** The last requests, for reports. */
  trail: string[];
  deadline: number;
}

interface StepOptions {
  /** Mutations of the payload (paths from the payload). */
  mutations?: readonly Mutation[];
  /** Mutations of the request itself (type, as, commandId, expectedVersion). */
  envelope?: readonly Mutation[];
  /** Set for a hostile case. */
  meta?: Meta;
  /** The check that fails when the step is not accepted (201). */
  mustBeAccepted?: string;
  /** The status the case must get, and the check that fails otherwise. */
  expected?: Expected;
}

type Created = { gameId: string; ruleset: string; tokens: { organizer: string; players: Record<string, string> } };

/** Plays games over HTTP with hostile cases, checking every answer into `findings`. */
export class HostileGames {
  constructor(
    private readonly url: string,
    private readonly catalogue: Catalogue,
    private readonly findings: Findings,
  ) {}

  async http(method: string, path: string, options: { token?: string; accept?: string; body?: string } = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.accept) headers.accept = options.accept;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await fetch(`${this.url}${path}`, { method, headers, body: options.body, signal: AbortSignal.timeout(30_000) });
      return { status: response.status, text: await response.text(), contentType: response.headers.get('content-type') ?? undefined };
    } catch (error) {
      return { status: 0, text: `no answer: ${(error as Error).message}` };
    }
  }

  /** One hostile request outside a game (create, evaluate, path), checked. */
  async sendCase(meta: Meta, sent: Sent, token?: string, expected?: Expected): Promise<Answer> {
    const answer = await this.http(sent.method, sent.path, { token, accept: sent.accept, body: sent.body });
    this.findings.countCase(meta, answer.status);
    const failures = checkAnswer(answer);
    if (expected && answer.status !== expected.status) failures.push({ check: expected.check, detail: `${answer.status} ${answer.text.slice(0, 300)}` });
    for (const failure of failures) this.findings.note(failure, contextOf(meta), answer.status, sent, meta.label);
    return answer;
  }

  async createGame(ruleset: string, options: Record<string, unknown>, deadline: number): Promise<Game | undefined> {
    const answer = await this.http('POST', '/games', { body: JSON.stringify({ ruleset, title: 'hostile input', options }) });
    if (answer.status !== 201) {
      this.findings.note({ check: 'a valid game cannot be created', detail: answer.text.slice(0, 300) }, `create ${ruleset}`, answer.status);
      return undefined;
    }
    return this.gameOf(JSON.parse(answer.text), deadline);
  }

  gameOf(created: Created, deadline: number): Game {
    return {
      ruleset: created.ruleset,
      gameId: created.gameId,
      organizer: created.tokens.organizer,
      players: created.tokens.players,
      version: 1,
      dirty: true,
      lastAccepted: false,
      alive: true,
      n: 0,
      protoIds: [...PROTOTYPE_NAMES],
      retries: [],
      trail: [],
      deadline,
    };
  }

  /** Posts one command (Accept: text/plain) and checks the answer and its text line. */
  async sendStep(game: Game, step: Step, options: StepOptions = {}): Promise<Answer> {
    const commandId = options.meta ? `h-${++game.n}` : (game.protoIds.shift() ?? `v-${++game.n}`);
    const request = {
      commandId,
      type: step.type,
      payload: step.payload,
      ...(step.as ? { as: step.as } : {}),
      ...(step.expectedVersion !== undefined ? { expectedVersion: step.expectedVersion } : {}),
    };
    const body = render(request, [...(options.mutations ?? []).map((m) => ({ ...m, path: ['payload', ...m.path] })), ...(options.envelope ?? [])]);
    const token = step.actor === ORGANIZER || step.as ? game.organizer : game.players[step.actor];
    const sent: Sent = { method: 'POST', path: `/games/${game.gameId}/commands`, accept: 'text/plain', body };
    const answer = await this.http(sent.method, sent.path, { token, accept: sent.accept, body });
    const failures = checkAnswer(answer);
    if (answer.status === 201) {
      failures.push(...checkTextLines(answer.text, [{ seq: game.version + 1, actor: step.as ?? step.actor, type: step.type }]));
      game.version += 1;
      game.dirty = true;
      // A command stored under a prototype name is retried after the seal: it must be found again.
      const storedId = JSON.parse(body).commandId;
      if (PROTOTYPE_NAMES.includes(storedId)) {
        game.retries.push({ token, body, seq: game.version, type: step.type });
        game.protoIds = game.protoIds.filter((id) => id !== storedId);
      }
    }
    if (options.mustBeAccepted && answer.status !== 201) failures.push({ check: options.mustBeAccepted, detail: `${answer.status} ${answer.text.slice(0, 300)}` });
    if (options.expected && answer.status !== options.expected.status) failures.push({ check: options.expected.check, detail: `${answer.status} ${answer.text.slice(0, 300)}` });
    const context = options.meta ? contextOf(options.meta) : `command ${game.ruleset} ${step.type} · valid step`;
    for (const failure of failures) this.findings.note(failure, context, answer.status, sent, options.meta?.label, game.trail);
    if (options.meta) this.findings.countCase(options.meta, answer.status);
    game.trail.push(`${step.as ? `organizer as ${step.as}` : step.actor}: ${printable(body, 200)} -> ${answer.status}`);
    if (game.trail.length > 5) game.trail.shift();
    return answer;
  }

  /** GET /games/{id}; also checks that only the accepted commands moved the game. */
  async viewOf(game: Game): Promise<View | undefined> {
    const path = `/games/${game.gameId}`;
    const answer = await this.http('GET', path, { token: game.organizer, accept: 'application/json' });
    if (answer.status !== 200) {
      this.findings.note({ check: 'the game cannot be read', detail: answer.text.slice(0, 300) }, `game ${game.ruleset}`, answer.status, { method: 'GET', path }, '', game.trail);
      game.alive = false;
      return undefined;
    }
    const view = JSON.parse(answer.text) as View;
    if (view.version !== game.version) {
      const detail = `version ${view.version}, ${game.version - 1} commands accepted`;
      this.findings.note({ check: 'the game moved by other than its accepted commands', detail }, `game ${game.ruleset}`, 200, { method: 'GET', path }, '', game.trail);
      game.version = view.version;
    }
    game.view = view;
    game.dirty = false;
    return view;
  }

  /** Valid steps, in order; false (and noted) at the first one refused. */
  async validSteps(game: Game, steps: readonly Step[], check: string): Promise<boolean> {
    for (const step of steps) {
      const answer = await this.sendStep(game, step, { mustBeAccepted: check });
      if (answer.status !== 201) return false;
    }
    return true;
  }

  /** GET /events as JSON and as text, page by page: one clean line per commit, standing for it. */
  async checkLog(game: Game, when: string): Promise<void> {
    let after = 0;
    for (let page = 0; page < 30; page++) {
      const path = `/games/${game.gameId}/events?after=${after}&limit=1000`;
      const json = await this.http('GET', path, { token: game.organizer, accept: 'application/json' });
      if (json.status !== 200) {
        this.findings.note({ check: 'the event log cannot be read', detail: json.text.slice(0, 300) }, `events ${game.ruleset} ${when}`, json.status, { method: 'GET', path });
        return;
      }
      const commits = JSON.parse(json.text).commits as { seq: number; actor: string; command: { type: string }; hash: string }[];
      if (commits.length === 0) break;
      const text = await this.http('GET', path, { token: game.organizer, accept: 'text/plain' });
      const expected = commits.map((c) => ({ seq: c.seq, actor: c.actor, type: c.command.type, hash8: c.hash.slice(0, 8) }));
      for (const failure of [...checkAnswer(text), ...checkTextLines(text.text, expected)]) {
        this.findings.note(failure, `GET /games/{id}/events text ${game.ruleset} ${when}`, text.status, { method: 'GET', path, accept: 'text/plain' });
      }
      after = commits.at(-1)!.seq;
    }
    if (after !== game.version) {
      this.findings.note({ check: 'the log does not hold one commit per accepted command', detail: `${after} commits, version ${game.version}` }, `events ${game.ruleset} ${when}`, 200);
    }
  }

  async checkVerify(game: Game, sealed: boolean, when: string): Promise<boolean> {
    const path = `/games/${game.gameId}/verify`;
    const answer = await this.http('GET', path, { token: game.organizer, accept: 'application/json' });
    for (const failure of checkAnswer(answer)) this.findings.note(failure, `verify ${game.ruleset} ${when}`, answer.status, { method: 'GET', path });
    const report = answer.status === 200 ? JSON.parse(answer.text) : undefined;
    const ok = report?.ok === true && report.failures?.length === 0 && report.checkedCommits === game.version && report.sealed === sealed;
    if (!ok) this.findings.note({ check: 'the game does not verify', detail: `${answer.status} ${answer.text.slice(0, 400)}` }, `verify ${game.ruleset} ${when}`, answer.status, { method: 'GET', path });
    return ok;
  }

  /** After the fuzzing: the log, verifies, moves on with valid commands, refuses hostile Seals, seals, verifies again. */
  async finishGame(game: Game, driver: RulesetDriver, counters: { verified: number; continued: number; sealed: number }): Promise<void> {
    await this.checkLog(game, 'after the fuzzing');
    if (await this.checkVerify(game, false, 'after the fuzzing')) counters.verified += 1;
    const view = await this.viewOf(game);
    if (view && (await this.validSteps(game, driver.proceed(view), 'the game cannot continue after the fuzzing (a valid command is refused)'))) counters.continued += 1;
    await this.sealGame(game, counters, 'after the fuzzing');
    // Commands whose commandId is a prototype name are found again: a retry answers with their commit.
    for (const retry of game.retries) {
      const path = `/games/${game.gameId}/commands`;
      const answer = await this.http('POST', path, { token: retry.token, accept: 'application/json', body: retry.body });
      const seq = answer.status === 200 ? JSON.parse(answer.text).commit?.seq : undefined;
      if (seq !== retry.seq) {
        const failure = { check: 'a retried command (commandId a prototype name) is not answered with its commit', detail: `${answer.status} ${answer.text.slice(0, 200)}` };
        this.findings.note(failure, `command ${game.ruleset} ${retry.type} retry`, answer.status, { method: 'POST', path, body: retry.body });
      }
    }
  }

  /** Hostile Seals first (each refused), then the real one; the sealed game verifies and its log is clean. */
  async sealGame(game: Game, counters: { sealed: number }, when: string): Promise<void> {
    const seal: Step = { actor: ORGANIZER, type: 'Seal', payload: {} };
    for (const { hostile, how } of hostileValuesFor({ path: [], kind: 'object' }, {}, { root: true })) {
      const meta: Meta = { where: 'command', ruleset: game.ruleset, subject: 'Seal', slot: '(root)', cls: hostile.cls, label: hostile.label };
      const expected = strictMembers(payloadSchema(this.catalogue, game.ruleset, 'Seal'), [], how) ?? { status: 400, check: 'a hostile Seal is not refused' };
      await this.sendStep(game, seal, { mutations: [{ path: [], hostile, how }], meta, expected });
    }
    if (await this.validSteps(game, [seal], `the game cannot be sealed ${when}`)) {
      if (await this.checkVerify(game, true, `${when}, sealed`)) counters.sealed += 1;
    }
    await this.checkLog(game, `${when}, sealed`);
  }

  /** Puts the game where the command means something, sends what comes before it, then the case. */
  async runCase(game: Game, driver: CommandDriver, type: string, shapeIndex: number, mutations: readonly Mutation[], meta?: Meta, expected?: Expected, mustBeAccepted?: string): Promise<Answer | undefined> {
    if (!game.alive) return undefined;
    if (Date.now() > game.deadline) {
      this.findings.note({ check: 'time budget spent before every case was sent', detail: type }, `command ${game.ruleset} ${type}`, 0);
      game.alive = false;
      return undefined;
    }
    let view = game.dirty || !game.view ? await this.viewOf(game) : game.view;
    if (!view) return undefined;
    const arm = driver.arm?.(view, game.lastAccepted) ?? [];
    if (arm.length) {
      if (!(await this.validSteps(game, arm, 'the game cannot be put back in play (a valid step is refused)'))) {
        game.alive = false;
        return undefined;
      }
      view = await this.viewOf(game);
      if (!view) return undefined;
    }
    const fresh = () => `${type.slice(0, 3).toLowerCase()}${++game.n}`;
    const shape = driver.shapes(view, fresh)[shapeIndex];
    const slot = mutations.length === 1 ? pathLabel(mutations[0].path) : undefined;
    const ref = slot && driver.refSlots?.includes(slot) ? slot : undefined;
    const all: Mutation[] = [...mutations];
    for (const m of mutations) for (const mirror of shape.mirrors?.[pathLabel(m.path)] ?? []) all.push({ ...m, path: mirror });
    let tainted = false;
    for (const before of shape.before?.(ref) ?? []) {
      if (before.hostileAt && meta && mutations.length === 1) {
        // The same hostile value where this step introduces what the case names.
        const hostile = mutations[0].hostile;
        const single = meta.cls !== 'combined (seeded random)';
        const ordinary = single ? ordinaryName(payloadSchema(this.catalogue, game.ruleset, before.type), before.hostileAt, hostile, 'replace', 201) : undefined;
        await this.sendStep(game, before, { mutations: [{ path: before.hostileAt, hostile, how: 'replace' }], meta: { ...meta, subject: before.type, slot: pathLabel(before.hostileAt) }, expected: ordinary });
        tainted = true;
      } else if (tainted && meta) {
        await this.sendStep(game, before, { meta: { ...meta, subject: before.type, slot: `(after a hostile ${slot})` } });
      } else {
        await this.sendStep(game, before, { mustBeAccepted: 'a valid step before the case is refused' });
      }
    }
    const answer = await this.sendStep(game, { actor: shape.actor, type, payload: shape.payload }, { mutations: all, meta, expected, mustBeAccepted });
    game.lastAccepted = answer.status === 201;
    return answer;
  }

  /** Every hostile case of one command, in a game of its own; then the game must verify, continue and seal. */
  async fuzzCommand(driver: RulesetDriver, type: string, deadline: number): Promise<void> {
    const command = driver.commands[type];
    const game = await this.createGame(driver.ruleset, driver.options, deadline);
    if (!game) return;
    this.findings.games.fuzzed += 1;
    const view = await this.viewOf(game);
    if (!view) return;
    const sample = command.shapes(view, () => 'sample');
    // First each valid shape: the state is right and the command reaches the rules (some depend on a die: up to 12 tries).
    for (let s = 0; s < sample.length; s++) {
      for (let attempt = 1; attempt <= 12; attempt++) {
        const check = attempt === 12 ? `the valid ${type} of the driver is refused (the driver or the game is broken)` : undefined;
        const answer = await this.runCase(game, command, type, s, [], undefined, undefined, check);
        if (!answer || answer.status === 201) break;
      }
    }
    for (let s = 0; s < sample.length; s++) {
      const payload = sample[s].payload;
      for (const slot of slotsOf(payload)) {
        const label = pathLabel(slot.path);
        const diceExpression = command.diceExpressionSlots?.includes(label);
        const schema = payloadSchema(this.catalogue, driver.ruleset, type);
        for (const { hostile, how } of hostileValuesFor(slot, valueAt(payload, slot.path), { diceExpression, root: slot.path.length === 0 })) {
          const meta: Meta = { where: 'command', ruleset: driver.ruleset, subject: type, slot: label, cls: hostile.cls, label: hostile.label };
          const ordinary = command.diceDecides || diceExpression ? undefined : ordinaryName(schema, slot.path, hostile, how, command.namedAtCreation?.includes(label) ? 422 : 201);
          await this.runCase(game, command, type, s, [{ path: slot.path, hostile, how }], meta, ordinary ?? strictMembers(schema, slot.path, how));
        }
      }
      for (const mutations of combinedMutations(payload, COMBINED_PER_SHAPE, seedOf(driver.ruleset, type, String(s)))) {
        const slots = mutations.map((m) => pathLabel(m.path)).join(' + ');
        const meta: Meta = { where: 'command', ruleset: driver.ruleset, subject: type, slot: slots, cls: 'combined (seeded random)', label: mutations.map((m) => m.hostile.label).join(' | ') };
        await this.runCase(game, command, type, s, mutations, meta);
      }
    }
    if (type === 'ContributeEntropy') await this.fuzzRequestFields(game, driver);
    await this.finishGame(game, driver, this.findings.games);
  }

  /** The request itself: hostile type, as, commandId and expectedVersion. */
  private async fuzzRequestFields(game: Game, driver: RulesetDriver): Promise<void> {
    const fields: { path: Path; kind: 'string' | 'number' }[] = [
      { path: ['type'], kind: 'string' },
      { path: ['as'], kind: 'string' },
      { path: ['commandId'], kind: 'string' },
      { path: ['expectedVersion'], kind: 'number' },
    ];
    for (const field of fields) {
      for (const { hostile, how } of hostileValuesFor(field, undefined)) {
        if (!game.alive || Date.now() > game.deadline) return;
        const view = game.dirty || !game.view ? await this.viewOf(game) : game.view;
        if (!view) return;
        const step: Step = { actor: ORGANIZER, as: view.sides[0], type: 'ContributeEntropy', payload: { entropy: `e${++game.n}` }, expectedVersion: game.version };
        const meta: Meta = { where: 'command', ruleset: driver.ruleset, subject: 'request', slot: pathLabel(field.path), cls: hostile.cls, label: hostile.label };
        await this.sendStep(game, step, { envelope: [{ path: field.path, hostile, how }], meta });
      }
    }
  }

  /** A game created with hostile input: it verifies, continues, refuses hostile Seals, seals, verifies. */
  async finishCreated(created: Created, driver: RulesetDriver, deadline: number): Promise<void> {
    const game = this.gameOf(created, deadline);
    const view = await this.viewOf(game);
    if (!view) return;
    const counters = this.findings.created;
    if (await this.checkVerify(game, false, 'after a hostile creation')) counters.verified += 1;
    if (await this.validSteps(game, driver.proceed(view), 'the game cannot continue after a hostile creation (a valid command is refused)')) counters.continued += 1;
    await this.validSteps(game, [{ actor: ORGANIZER, type: 'Seal', payload: {} }], 'the game cannot be sealed after a hostile creation');
    if (await this.checkVerify(game, true, 'after a hostile creation, sealed')) counters.sealed += 1;
    await this.checkLog(game, 'after a hostile creation');
  }
}
