import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAGE_BYTES } from '../../functions/application/eventPages';
import { EXPORT_LINK_SECONDS, INLINE_EXPORT_MAX_BYTES } from '../../functions/application/exports';
import { SNAPSHOT_INTERVAL } from '../../functions/application/snapshots';
import { CLIENT_LIMITS } from '../../functions/lambda/awsClients';
import { EXPORT_RETENTION_DAYS } from '../../functions/store/blobStore';
import { SETTING_NAMES } from '../../functions/config/settingNames';
import { ArbiterStack, DEFAULTS, MIN_UNRESERVED_CONCURRENCY, READ_TIMEOUT } from '../../infra/arbiterStack';
import { BUNDLE, LAMBDA_ENTRIES } from '../../infra/bundling';
import { PUSH_ENTRIES } from '../../infra/push';
import { buildWebAssets, gzippedBytes } from '../../web/build';
import { memoryService } from '../support/memoryService';

/**
 * The sizes and counts the README states, against what the code, the stack and the build
 * give at test time (the Lambda bundles' table is checked by test/infra/bundles.test.ts).
 * Times are not claimed there: vitest prints each run's duration, `npm run bench` the rest.
 */
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const WORDS = new Map(['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'].map((word, i) => [word, i + 1]));

/** The number the README writes where `pattern`'s first group is: digits (with commas) or a word up to ten. */
function stated(pattern: RegExp): number {
  const text = pattern.exec(readme)?.[1];
  expect(text, `the README says ${pattern}`).toBeDefined();
  const value = WORDS.get(text!.toLowerCase()) ?? Number(text!.replace(/,/g, ''));
  expect(Number.isFinite(value), `${text} is a number`).toBe(true);
  return value;
}

const within = (actual: number, expected: number, tolerance: number) => Math.abs(actual - expected) <= tolerance;

describe('the README, measured', () => {
  it('gives the web app\'s size, gzipped, as the build measures it, within 10 KB', async () => {
    const measured = gzippedBytes(await buildWebAssets()) / 1024;
    const claimed = stated(/\(about (\d+) KB gzipped; `npm run build:web`/);
    expect(within(claimed, measured, 10), `README: about ${claimed} KB; the build: ${measured.toFixed(1)} KB`).toBe(true);
  });

  it('gives how many d6 commits fit in an export before it is answered with a link, within 15%', async () => {
    const { service } = memoryService('readme-figures');
    const game = await service.createGame({ ruleset: 'dice' });
    const { player1 } = game.tokens.players;
    const roll = async (from: number, count: number) => {
      for (let i = from; i < from + count; i++) await service.submit(game.gameId, player1, { commandId: `r${i}`, type: 'Roll', payload: { dice: '1d6', purpose: `fire ${i}` } });
      return JSON.stringify(await service.exportBundle(game.gameId, player1)).length;
    };
    const before = await roll(0, 100);
    const bytesPerCommit = ((await roll(100, 200)) - before) / 200;
    expect(stated(/an export over (\d+) MiB/) * 1024 * 1024).toBe(INLINE_EXPORT_MAX_BYTES);
    const measured = INLINE_EXPORT_MAX_BYTES / bytesPerCommit;
    const claimed = stated(/over \d+ MiB \(about ([\d,]+) d6 commits\)/);
    expect(Math.abs(claimed - measured) / measured, `README: about ${claimed}; measured: ${Math.round(measured)}`).toBeLessThanOrEqual(0.15);
  });

  it("gives the request count of the hostile-input run as the reliability suite's last report has it, within 5%", () => {
    const report = readFileSync(new URL('../../docs/reliability.md', import.meta.url), 'utf8');
    const reported = Number(/\| hostile requests sent[^|]*\| ([\d,]+) \|/.exec(report)?.[1].replace(/,/g, ''));
    expect(reported).toBeGreaterThan(0);
    const claimed = stated(/option of every ruleset \(about ([\d,]+) requests\)/);
    expect(Math.abs(claimed - reported) / reported, `README: about ${claimed}; docs/reliability.md: ${reported}`).toBeLessThanOrEqual(0.05);
  });
});

describe('the README, against the code and the stack it describes', () => {
  it("gives npm start's default port and the Node.js version package.json requires", () => {
    expect(stated(/on http:\/\/127\.0\.0\.1:(\d+) \(set `ARBITER_PORT` to change it/)).toBe(Number(SETTING_NAMES.port.byDefault));
    const engines = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).engines.node as string;
    expect(stated(/Requires Node\.js (\d+) or newer/)).toBe(Number(/^>=(\d+)$/.exec(engines)?.[1]));
  });

  let functions: Record<string, { Properties: { MemorySize?: number; Timeout?: number } }>;
  beforeAll(() => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    functions = Template.fromStack(new ArbiterStack(app, 'Arbiter')).findResources('AWS::Lambda::Function') as typeof functions;
  });
  const functionNamed = (name: string) => {
    const found = Object.entries(functions).filter(([id]) => id.replace(/[0-9A-F]{8}$/, '') === name);
    expect(found, name).toHaveLength(1);
    return found[0][1].Properties;
  };
  const httpFunctions = Object.keys(LAMBDA_ENTRIES);
  const logicalId = (name: string) => `${name[0].toUpperCase()}${name.slice(1)}Function`;

  it('counts the functions as the stack has them', () => {
    expect(stated(/The same handlers run as (\w+) Lambda functions behind an HTTP API/)).toBe(httpFunctions.length);
    expect(stated(/plus (\w+) functions that push new commits/)).toBe(Object.keys(PUSH_ENTRIES).length);
    expect(stated(/`npm run build` writes the first (\w+);/)).toBe(httpFunctions.length);
  });

  it("gives the functions' memory and the reads timeout and long-poll hold the stack deploys", () => {
    const memory = stated(/`docs` \(`\/docs`\), (\d+) MB each/);
    for (const name of httpFunctions) expect(functionNamed(logicalId(name)).MemorySize, name).toBe(memory);
    const pushMemory = stated(/`pushSocket` and `pushStream` \((\d+) MB\)/);
    for (const name of ['pushSocket', 'pushStream']) expect(functionNamed(logicalId(name)).MemorySize, name).toBe(pushMemory);
    expect(Object.keys(PUSH_ENTRIES).sort()).toEqual(['pushFanOut', 'pushSocket', 'pushStream']);
    expect(functionNamed(logicalId('pushFanOut')).MemorySize).toBe(stated(/`pushFanOut` \((\d+) MB/));
    expect(stated(/head, keys; (\d+) s timeout/)).toBe(READ_TIMEOUT.toSeconds());
    expect(functionNamed('ReadsFunction').Timeout).toBe(READ_TIMEOUT.toSeconds());
    expect(stated(/a long\s+poll held at most (\d+) s/)).toBe(DEFAULTS.longPollMaxSeconds);
  });

  it('gives the concurrency, throttling, retries, log retention and bundle guard the code sets', () => {
    expect(stated(/(\d+) executions reserved for `commands`/)).toBe(DEFAULTS.commandsConcurrency);
    expect(stated(/`reads` capped at (\d+)/)).toBe(DEFAULTS.readsConcurrency);
    expect(stated(/fewer than the (\d+) unreserved executions/)).toBe(MIN_UNRESERVED_CONCURRENCY);
    expect(stated(/stage throttling \((\d+) requests\/s/)).toBe(DEFAULTS.throttle.rateLimit);
    expect(stated(/requests\/s,\s+bursts of (\d+);/)).toBe(DEFAULTS.throttle.burstLimit);
    expect(stated(/and at most (\d+) attempts per call/)).toBe(Math.max(...Object.values(CLIENT_LIMITS).map((limit) => limit.maxAttempts)));
    expect(stated(/is kept (\d+) days \(`-c logRetentionDays/)).toBe(DEFAULTS.logRetention);
    expect(stated(/the guard is (\d+) KB/) * 1024).toBe(BUNDLE.maxBytes);
  });

  it('gives the export links, their retention, event pages and snapshots as the code has them', () => {
    expect(stated(/objects kept (\d+) days/)).toBe(EXPORT_RETENTION_DAYS);
    expect(stated(/a 303 to a (\w+)-minute link/) * 60).toBe(EXPORT_LINK_SECONDS);
    expect(stated(/event pages capped at (\d+) MiB/) * 1024 * 1024).toBe(MAX_PAGE_BYTES);
    expect(stated(/\(at most (\d+): a snapshot is written/)).toBe(SNAPSHOT_INTERVAL - 1);
    expect(stated(/a snapshot is written\s+every (\d+) commits/)).toBe(SNAPSHOT_INTERVAL);
  });
});
