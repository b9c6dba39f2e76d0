import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../functions/local/localService';
import { DRIVERS, type RulesetDriver } from './hostileDrivers';
import { inputSchema, optionsSchema, ordinaryName, strictMembers, type Catalogue, type Expected } from './hostileExpectations';
import { Findings, type Meta } from './hostileFindings';
import { COMBINED_PER_SHAPE, HostileGames, seedOf } from './hostileGames';
import { combinedMutations, hostileValuesFor, pathLabel, render, slotsOf, valueAt, type Mutation } from './hostileMutations';
import { ATTACK_CLASSES, HOSTILE_STRINGS, type AttackClass } from './hostileValues';
import { FIGURES_FILE, figure } from './figures';

/**
 * Hostile input, command by command. Every command and procedure of GET /rulesets gets
 * payloads whose ids and free text are hostile (prototype names, huge, blank, line and bidi
 * controls, lone surrogates, forged chat lines) and deep or huge values, in games put into
 * states where the command means something (hostileDrivers.ts). Never a 5xx; refusals in
 * the error shape; the chat-log text one clean line per commit; every game still verifies,
 * continues and seals. Cases are enumerated in a fixed order, the combined ones from a
 * fixed seed: a failure reproduces. The problems of a run, with examples, are written to
 * hostile-input-problems.json beside the figures.
 */

const MIN_CASES = 5_000;
/** Each test stops sending at this budget (and fails if it had to), far under the 180 s test timeout. */
const BUDGET_MS = 150_000;
const GAMES_AT_ONCE = 3;

let local: LocalService;
let catalogue: Catalogue;
let games: HostileGames;
const findings = new Findings();
const unexpected: string[] = [];

beforeAll(async () => {
  local = await startLocalService({ observer: { unexpected: (e) => unexpected.push(`${e.name}: ${e.message.slice(0, 200)}`) } });
  catalogue = JSON.parse(await (await fetch(`${local.url}/rulesets`)).text()).rulesets;
  games = new HostileGames(local.url, catalogue, findings);
});
afterAll(async () => {
  await local?.close();
  findings.write(join(FIGURES_FILE, '..', 'hostile-input-problems.json'));
});

/** Runs one test's requests, then fails with a readable list of what went wrong in them. */
async function expectNoProblems(work: () => Promise<void>): Promise<void> {
  const mark = findings.mark();
  await work();
  const { count, text } = findings.since(mark);
  expect(count, `${count} problems:\n${text}`).toBe(0);
}

async function inPool<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

interface Case {
  mutations: Mutation[];
  meta: Meta;
  expected?: Expected;
}

/** Every hostile value at every slot of a valid document, then the seeded combinations. */
function casesOf(
  document: unknown,
  meta: Pick<Meta, 'where' | 'ruleset' | 'subject'>,
  seed: number,
  options: {
    diceExpression?: (label: string) => boolean;
    expected?: (slot: Mutation['path'], m: Pick<Mutation, 'hostile' | 'how'>) => Expected | undefined;
    /** Places that must hold the same value as the slot with this label, when the slot's value is replaced. */
    mirrors?: (label: string) => Mutation['path'][];
    /** Slots not to fuzz one by one here (fuzzed with another document). */
    skip?: (label: string) => boolean;
  } = {},
): Case[] {
  const cases: Case[] = [];
  for (const slot of slotsOf(document)) {
    const label = pathLabel(slot.path);
    if (options.skip?.(label)) continue;
    for (const { hostile, how } of hostileValuesFor(slot, valueAt(document, slot.path), { diceExpression: options.diceExpression?.(label), root: slot.path.length === 0 })) {
      const mirrored = how === 'replace' ? (options.mirrors?.(label) ?? []).map((path) => ({ path, hostile, how })) : [];
      cases.push({ mutations: [{ path: slot.path, hostile, how }, ...mirrored], meta: { ...meta, slot: label, cls: hostile.cls, label: hostile.label }, expected: options.expected?.(slot.path, { hostile, how }) });
    }
  }
  for (const mutations of combinedMutations(document, COMBINED_PER_SHAPE, seed)) {
    const slot = mutations.map((m) => pathLabel(m.path)).join(' + ');
    cases.push({ mutations, meta: { ...meta, slot, cls: 'combined (seeded random)', label: mutations.map((m) => m.hostile.label).join(' | ') } });
  }
  return cases;
}

describe('hostile input, command by command', () => {
  it('every command and procedure of GET /rulesets has a driver', () => {
    const missing: string[] = [];
    for (const ruleset of catalogue) {
      const driver = DRIVERS.find((d) => d.ruleset === ruleset.id);
      if (!driver) {
        missing.push(`ruleset ${ruleset.id}`);
        continue;
      }
      for (const { type } of ruleset.commands) if (!Object.hasOwn(driver.commands, type)) missing.push(`${ruleset.id} command ${type}`);
      for (const { name } of ruleset.procedures) if (!Object.hasOwn(driver.procedures, name)) missing.push(`${ruleset.id} procedure ${name}`);
    }
    expect(missing).toEqual([]);
  });

  for (const driver of DRIVERS) {
    it(`${driver.ruleset}: every command with hostile payloads; every game then verifies, continues and seals`, async () => {
      const deadline = Date.now() + BUDGET_MS;
      // From the catalogue, so that a new command is fuzzed (or fails the test above) without a change here. Seal comes last in every game.
      const types = (catalogue.find((r) => r.id === driver.ruleset)?.commands ?? []).map((c) => c.type).filter((t) => t !== 'Seal' && Object.hasOwn(driver.commands, t));
      await expectNoProblems(() => inPool(types, GAMES_AT_ONCE, (type) => games.fuzzCommand(driver, type, deadline)));
    });
  }

  it('POST /games with hostile rulesets, titles and options: every game created verifies, continues and seals', async () => {
    const deadline = Date.now() + BUDGET_MS;
    await expectNoProblems(() => inPool(DRIVERS, 2, (driver) => fuzzCreate(driver, deadline)));
  });

  it('/rulesets/{id}/evaluate with hostile inputs, dice and options; hostile names in the paths', async () => {
    const deadline = Date.now() + BUDGET_MS;
    await expectNoProblems(async () => {
      for (const driver of DRIVERS) await fuzzEvaluate(driver, deadline);
      await fuzzPaths(deadline);
    });
  });

  it(`in all, at least ${MIN_CASES.toLocaleString('en-US')} hostile cases over every command and procedure, and no unexpected server error`, () => {
    const perClass = (cls: AttackClass) => [...(findings.byClass.get(cls)?.values() ?? [])].reduce((a, b) => a + b, 0);
    const statuses = (m: Map<number, number> | undefined) => [...(m ?? [])].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`).join(', ');
    const commands = catalogue.flatMap((r) => r.commands.map((c) => `command ${r.id} ${c.type}`));
    const procedures = catalogue.flatMap((r) => r.procedures.map((p) => `evaluate ${r.id} ${p.name}`));
    const covered = (all: string[]) => all.filter((s) => findings.covered.has(s)).length;
    const { games: g, created: c } = findings;
    figure('Hostile input', 'hostile requests sent (fixed order, combinations from a fixed seed)', findings.cases);
    figure('Hostile input', 'commands / procedures of GET /rulesets given hostile cases', `${covered(commands)} of ${commands.length} / ${covered(procedures)} of ${procedures.length}`);
    for (const cls of ATTACK_CLASSES) figure('Hostile input', `class: ${cls}`, `${perClass(cls).toLocaleString('en-US')} (${statuses(findings.byClass.get(cls))})`);
    figure('Hostile input', 'answers by status', statuses(findings.statuses));
    figure('Hostile input', 'games fuzzed, one per command: verified / continued / sealed and verified', `${g.fuzzed}: ${g.verified} / ${g.continued} / ${g.sealed}`);
    figure('Hostile input', 'games created with hostile titles and options: verified / continued / sealed and verified', `${c.accepted}: ${c.verified} / ${c.continued} / ${c.sealed}`);
    figure('Hostile input', '5xx answers / stack traces / errors not in the error shape', `${findings.countOf('5xx')} / ${findings.countOf('stack trace')} / ${findings.countOf('error')}`);
    figure('Hostile input', 'text lines broken (a line break, bidi or control inside, or not one per commit)', findings.countOf('text '));
    figure('Hostile input', 'games that did not verify, continue or seal', findings.countOf('the game'));
    expect(findings.cases).toBeGreaterThanOrEqual(MIN_CASES);
    expect([...commands, ...procedures].filter((s) => !findings.covered.has(s))).toEqual([]);
    expect(unexpected).toEqual([]);
  });
});

/** POST /games with hostile values; every game created must verify, continue and seal. */
async function fuzzCreate(driver: RulesetDriver, deadline: number): Promise<void> {
  const template = { ruleset: driver.ruleset, title: 'hostile input', options: driver.options, public: false };
  const schema = optionsSchema(catalogue, driver.ruleset);
  const cases = casesOf(template, { where: 'create', ruleset: driver.ruleset, subject: 'POST /games' }, seedOf(driver.ruleset, 'create'), {
    expected: (path, { hostile, how }) => (path[0] === 'options' ? (ordinaryName(schema, path.slice(1), hostile, how, 201) ?? strictMembers(schema, path.slice(1), how)) : undefined),
    mirrors: (label) => (label.startsWith('options.') ? (driver.optionMirrors?.[label.slice('options.'.length)] ?? []).map((path) => ['options', ...path]) : []),
  });
  for (const { mutations, meta, expected } of cases) {
    if (Date.now() > deadline) {
      findings.note({ check: 'time budget spent before every case was sent', detail: 'POST /games' }, `create ${driver.ruleset}`, 0);
      return;
    }
    const answer = await games.sendCase(meta, { method: 'POST', path: '/games', body: render(template, mutations) }, undefined, expected);
    if (answer.status !== 201) continue;
    findings.created.accepted += 1;
    const created = JSON.parse(answer.text);
    await games.finishCreated(created, DRIVERS.find((d) => d.ruleset === created.ruleset) ?? driver, deadline);
  }
}

/** POST /rulesets/{id}/evaluate, every procedure: hostile input, dice and options. Stateless: four at a time. */
async function fuzzEvaluate(driver: RulesetDriver, deadline: number): Promise<void> {
  const path = `/rulesets/${driver.ruleset}/evaluate`;
  let optionsFuzzed = false;
  for (const [procedure, { inputs, diceExpressionSlots = [], mirrors = {} }] of Object.entries(driver.procedures)) {
    for (const [i, input] of inputs.entries()) {
      // The options are the same document for every procedure: fuzzed one by one with the first input only.
      const fuzzOptions = !optionsFuzzed;
      optionsFuzzed = true;
      const template = { procedure, input, dice: Array(24).fill(2), options: driver.options };
      const control = await games.http('POST', path, { body: JSON.stringify(template) });
      if (control.status !== 200) {
        findings.note({ check: 'the valid input of the driver is refused', detail: control.text.slice(0, 300) }, `evaluate ${driver.ruleset} ${procedure}`, control.status, { method: 'POST', path, body: JSON.stringify(template) });
      }
      const isDice = (label: string) => diceExpressionSlots.some((s) => label === `input.${s}`);
      const schemas = { input: inputSchema(catalogue, driver.ruleset, procedure), options: optionsSchema(catalogue, driver.ruleset) };
      const cases = casesOf(template, { where: 'evaluate', ruleset: driver.ruleset, subject: procedure }, seedOf(driver.ruleset, 'evaluate', procedure, String(i)), {
        diceExpression: isDice,
        skip: (label) => !fuzzOptions && label.startsWith('options.'),
        mirrors: (label) => (label.startsWith('input.') ? (mirrors[label.slice('input.'.length)] ?? []).map((path) => ['input', ...path]) : []),
        expected: (slotPath, { hostile, how }) => {
          const part = slotPath[0] === 'input' || slotPath[0] === 'options' ? slotPath[0] : undefined;
          if (!part) return undefined;
          const ordinary = part === 'input' && !isDice(pathLabel(slotPath)) ? ordinaryName(schemas.input, slotPath.slice(1), hostile, how, 200) : undefined;
          return ordinary ?? strictMembers(schemas[part], slotPath.slice(1), how);
        },
      });
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < cases.length && Date.now() < deadline) {
            const { mutations, meta, expected } = cases[next++];
            await games.sendCase(meta, { method: 'POST', path, body: render(template, mutations) }, undefined, expected);
          }
        }),
      );
      if (next < cases.length) findings.note({ check: 'time budget spent before every case was sent', detail: procedure }, `evaluate ${driver.ruleset}`, 0);
    }
  }
}

/** A path segment for any string: percent-encoded, a lone surrogate as its three WTF-8 bytes (which no UTF-8 decoder takes). */
function segment(text: string): string {
  return [...text]
    .map((ch) => {
      try {
        return encodeURIComponent(ch);
      } catch {
        const c = ch.charCodeAt(0);
        return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
      }
    })
    .join('');
}

/** Hostile names where the path names a ruleset or a game. */
async function fuzzPaths(deadline: number): Promise<void> {
  const game = await games.createGame('dice', {}, deadline);
  if (!game) return;
  const names = HOSTILE_STRINGS.filter((h) => h.json.length <= 2_000).flatMap((h) => {
    try {
      return [{ label: h.label, text: JSON.parse(h.json) as string }];
    } catch {
      return []; // raw control characters inside the JSON text: not a name
    }
  });
  const roll = JSON.stringify({ commandId: 'path-roll', type: 'Roll', payload: { dice: 'd6', purpose: 'path' } });
  const evaluate = JSON.stringify({ procedure: 'roll', input: { dice: 'd6' } });
  for (const name of names) {
    if (Date.now() > deadline) {
      findings.note({ check: 'time budget spent before every case was sent', detail: 'paths' }, 'path', 0);
      return;
    }
    const s = segment(name.text);
    const meta = (subject: string): Meta => ({ where: 'path', ruleset: '-', subject, slot: 'path', cls: 'hostile names in the path', label: name.label });
    await games.sendCase(meta('POST /rulesets/{id}/evaluate'), { method: 'POST', path: `/rulesets/${s}/evaluate`, body: evaluate });
    await games.sendCase(meta('POST /games/{id}/commands'), { method: 'POST', path: `/games/${s}/commands`, body: roll }, game.players.player1);
    await games.sendCase(meta('GET /games/{id}/events'), { method: 'GET', path: `/games/${s}/events`, accept: 'text/plain' }, game.organizer);
    await games.sendCase(meta('GET /games/{id}/verify'), { method: 'GET', path: `/games/${s}/verify` }, game.organizer);
  }
  await games.checkLog(game, 'after hostile paths');
}
