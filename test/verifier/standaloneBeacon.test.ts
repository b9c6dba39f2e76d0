import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildVerifierBundle } from '../../verifier/bundle';
import { buildBeaconGame } from '../support/beaconGame';
import { run } from '../support/runCli';
import { TEST_AA_TABLE } from '../domain/rulesets/europa/harness';
import { SCRIPT } from '../domain/rulesets/europa/samples';
import { TEST_CHAIN, testChainGame } from './beaconExports';
import { tempDir } from './cliHarness';

const quicknetGame = buildBeaconGame();
const testGame = testChainGame();
// The Europa sample script, its two AA fires waiting for quicknet rounds: fortifications, turns and fires replayed by the built file.
const europaGame = buildBeaconGame({ ruleset: 'europa', gameId: 'g-europa', options: { aaTable: TEST_AA_TABLE }, commands: SCRIPT.map(([actor, type, payload]) => ({ actor, type, payload })) });
const FIXTURES = ['france44/fixtures/game-before-issue-19.json', 'memoir44/fixtures/game-before-issue-19.json', 'normandy44/fixtures/game-before-issue-19.json', 'warsandbattles/fixtures/game-before-issue-31.json'];
let dir: string;
let verifier: (args: string[]) => ReturnType<typeof run>;

beforeAll(async () => {
  // Alone in an empty directory outside the project, as a person runs the file they downloaded.
  dir = tempDir();
  writeFileSync(join(dir, 'verifier.mjs'), await buildVerifierBundle());
  writeFileSync(join(dir, 'beacon.json'), JSON.stringify(quicknetGame.bundle));
  writeFileSync(join(dir, 'test-chain.json'), JSON.stringify(testGame.bundle));
  writeFileSync(join(dir, 'europa.json'), JSON.stringify(europaGame.bundle));
  verifier = (args) => run('node', ['verifier.mjs', ...args], { ARBITER_TRUST_FILE: join(dir, 'no-trust.json'), NODE_PATH: '' }, dir);
});

describe('the standalone verifier checks beacon games with its own BLS code', () => {
  it('verifies the game on the real quicknet rounds: exit 0, its rounds checked', async () => {
    const result = await verifier(['beacon.json', '--trust', quicknetGame.fingerprint]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('  ✓ drand beacons: 4 rounds of quicknet checked');
    const json = await verifier(['beacon.json', '--trust', quicknetGame.fingerprint, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ exitCode: 0, beacons: { checked: 4, chain: 'quicknet' } });
  });

  it('refuses the test chain (exit 1) until its hash is pinned with --trust-beacon', async () => {
    const unpinned = await verifier(['test-chain.json', '--trust', testGame.fingerprint]);
    expect(unpinned.code).toBe(1);
    expect(unpinned.stdout).toContain(`pin it with --trust-beacon ${TEST_CHAIN.chain.chainHash}`);
    const pinned = await verifier(['test-chain.json', '--trust', testGame.fingerprint, '--trust-beacon', TEST_CHAIN.chain.chainHash]);
    expect(pinned.code, pinned.stdout).toBe(0);
  });

  it('still replays the rulesets it was slimmed around: a Europa beacon game and recorded games of France 1944, Memoir 44, Normandy 44 and Wars and Battles verify', async () => {
    const europa = await verifier(['europa.json', '--trust', europaGame.fingerprint]);
    expect(europa.code, europa.stdout + europa.stderr).toBe(0);
    expect(europa.stdout).toContain('  ✓ drand beacons: 2 rounds of quicknet checked');
    for (const fixture of FIXTURES) {
      const { trusted, bundle } = JSON.parse(readFileSync(new URL(`../domain/rulesets/${fixture}`, import.meta.url), 'utf8')) as { trusted: string; bundle: unknown };
      const file = `${fixture.split('/')[0]}.json`;
      writeFileSync(join(dir, file), JSON.stringify(bundle));
      const result = await verifier([file, '--trust', trusted]);
      expect(result.code, `${fixture}: ${result.stdout}${result.stderr}`).toBe(0);
    }
  });
});
