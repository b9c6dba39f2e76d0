import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QUICKNET } from '../../../domain/beacon/chain';
import { beaconChainsOf } from '../../../functions/config/beaconChains';
import { readSettings, SettingsError } from '../../../functions/config/settings';
import { beaconChainsFileText } from '../../support/loopbackRelay';
import { testBeaconChain } from '../../support/testBeaconChain';

const folder = mkdtempSync(join(tmpdir(), 'arbiter-b32-relay-chains-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
const fileOf = (text: string) => {
  const path = join(folder, `chains-${++files}.json`);
  writeFileSync(path, text);
  return path;
};
const one = testBeaconChain({ name: 'club-net', genesis: 1_700_000_000, seed: 'one' }).chain;
const two = testBeaconChain({ name: 'lan-party', genesis: 1_700_000_000, period: 2, seed: 'two' }).chain;
const entryOf = ({ chain, ...rest }: typeof one) => ({ name: chain, ...rest });

const refusal = (path: string): string => {
  try {
    beaconChainsOf(readSettings({ ARBITER_BEACON_CHAINS: path }).settings);
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${path}`);
};

describe('ARBITER_BEACON_CHAINS', () => {
  it('offers quicknet and the chains of the file, by name', () => {
    const file = fileOf(beaconChainsFileText([one, two]));
    const { settings } = readSettings({ ARBITER_BEACON_CHAINS: ` ${file} ` });
    expect(settings.beaconChains).toBe(file);
    const offered = beaconChainsOf(settings);
    expect([...offered.keys()]).toEqual(['quicknet', 'club-net', 'lan-party']);
    expect(offered.get('lan-party')).toEqual(two);
    expect(offered.get('quicknet')).toEqual(QUICKNET);
    expect([...beaconChainsOf(readSettings({}).settings).keys()]).toEqual(['quicknet']);
    // A name is data, never an object key: a chain named like a prototype property is not offered by accident.
    expect(beaconChainsOf({}).get('constructor')).toBeUndefined();
  });

  it('refuses a file it cannot read or that is not JSON, naming the setting and the file', () => {
    const missing = join(folder, 'missing.json');
    expect(refusal(missing)).toBe(`ARBITER_BEACON_CHAINS names ${missing}, which cannot be read (ENOENT)`);
    const notJson = fileOf('[{ name: club-net }]');
    expect(refusal(notJson)).toMatch(new RegExp(`^ARBITER_BEACON_CHAINS names ${notJson}, which is not JSON \\(`));
    expect(refusal(folder)).toContain('cannot be read (EISDIR)');
    const large = fileOf(' '.repeat(1024 * 1024 + 1));
    expect(refusal(large)).toBe(`ARBITER_BEACON_CHAINS names ${large}, which is larger than 1048576 bytes: a list of chains is a few hundred bytes each`);
  });

  it('refuses a chain that is not one, naming the field', () => {
    const cases: [unknown, string][] = [
      [{}, 'the list: must be a list'],
      [[], 'the list: needs 1 to 100 items'],
      [[{ ...entryOf(one), publicKey: 'ab' }], '[0].publicKey: 96 bytes in lowercase hex'],
      [[entryOf(one), { ...entryOf(two), chainHash: two.chainHash.toUpperCase() }], '[1].chainHash: 32 bytes in lowercase hex'],
      [[{ ...entryOf(one), period: 0 }], '[0].period: must be a whole number from 1 to 3600'],
      [[{ ...entryOf(one), genesis: '2023-08-23' }], '[0].genesis: must be a whole number, not text'],
      [[{ ...entryOf(one), scheme: 'pedersen-bls-chained' }], '[0].scheme: must be bls-unchained-g1-rfc9380'],
      [[{ ...entryOf(one), name: 'Club Net' }], '[0].name: a chain name is 1 to 32 lowercase letters, digits or -'],
      [[{ ...entryOf(one), chain: 'club-net' }], '[0]: does not take the field "chain"'],
      [[{ chainHash: one.chainHash }], '[0].name: is required: text'],
    ];
    for (const [content, field] of cases) {
      const message = refusal(fileOf(JSON.stringify(content)));
      expect(message, JSON.stringify(content).slice(0, 80)).toContain('is not a list of chains { name, chainHash, publicKey, period, genesis, scheme }: ');
      expect(message, JSON.stringify(content).slice(0, 80)).toContain(field);
    }
  });

  it('refuses quicknet and names or chain hashes given twice', () => {
    expect(refusal(fileOf(JSON.stringify([{ ...entryOf(one), name: 'quicknet' }])))).toContain('[0].name: "quicknet" is a chain every server knows already');
    expect(refusal(fileOf(JSON.stringify([{ ...entryOf(one), chainHash: QUICKNET.chainHash }])))).toContain(`[0].chainHash: "${QUICKNET.chainHash}" is a chain every server knows already`);
    expect(refusal(fileOf(JSON.stringify([entryOf(one), { ...entryOf(two), name: 'club-net' }])))).toContain('[1].name: "club-net" is given twice (also at [0])');
    expect(refusal(fileOf(JSON.stringify([entryOf(one), { ...entryOf(two), chainHash: one.chainHash }])))).toContain(`[1].chainHash: "${one.chainHash}" is given twice (also at [0])`);
  });
});
