import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import * as z from 'zod';
import { beaconChainSchema, KNOWN_BEACON_CHAINS, type BeaconChain } from '../../domain/beacon/chain';
import { fieldIssues, IN_WORDS } from '../application/zodIssues';
import { SETTING_NAMES, SettingsError } from './settingNames';

const MAX_FILE_BYTES = 1024 * 1024;
const MAX_CHAINS = 100;

/** One chain as the operator's file writes it (beacon.md §7): `name` is what GameCreated.beacon calls `chain`. */
const fileEntrySchema = beaconChainSchema.omit({ chain: true }).extend({ name: beaconChainSchema.shape.chain });
const fileSchema = z.array(fileEntrySchema).min(1).max(MAX_CHAINS);

/**
 * ARBITER_BEACON_CHAINS: the extra drand chains of a private deployment or a test, read from
 * the JSON file it names. Refused, naming the file and the field: a file that cannot be read,
 * is not JSON or not such an array, a name or chain hash every server knows already (quicknet)
 * or that the file gives twice.
 */
function beaconChainsFromFile(path: string, setting: string): BeaconChain[] {
  const file = resolve(path.trim());
  const refused = (what: string) => new Error(`${setting} names ${file}, which ${what}`);
  let text: string | undefined;
  try {
    if (statSync(file).size <= MAX_FILE_BYTES) text = readFileSync(file, 'utf8');
  } catch (error) {
    throw refused(`cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (text === undefined) throw refused(`is larger than ${MAX_FILE_BYTES} bytes: a list of chains is a few hundred bytes each`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw refused(`is not JSON (${(error as Error).message.slice(0, 120)})`);
  }
  const parsed = fileSchema.safeParse(json, IN_WORDS);
  if (!parsed.success) {
    const issues = fieldIssues(parsed.error).map(({ field, message }) => `${field === '(body)' ? 'the list' : field}: ${message}`);
    throw refused(`is not a list of chains { name, chainHash, publicKey, period, genesis, scheme }: ${issues.join('; ')}`);
  }
  const problems: string[] = [];
  const names = new Map<string, number>(KNOWN_BEACON_CHAINS.map((c) => [c.chain, -1]));
  const hashes = new Map<string, number>(KNOWN_BEACON_CHAINS.map((c) => [c.chainHash, -1]));
  parsed.data.forEach((entry, index) => {
    for (const [field, seen, value] of [['name', names, entry.name], ['chainHash', hashes, entry.chainHash]] as const) {
      const before = seen.get(value);
      if (before === -1) problems.push(`[${index}].${field}: ${JSON.stringify(value)} is a chain every server knows already: give only your own chains`);
      else if (before !== undefined) problems.push(`[${index}].${field}: ${JSON.stringify(value)} is given twice (also at [${before}])`);
      else seen.set(value, index);
    }
  });
  if (problems.length) throw refused(`${problems.length === 1 ? 'has a problem' : 'has problems'}: ${problems.join('; ')}`);
  return parsed.data.map(({ name, ...rest }) => ({ chain: name, ...rest }));
}

/**
 * The chains this server offers, by name: the ones every server knows (quicknet), then those of
 * the file ARBITER_BEACON_CHAINS names, read now. Call it once where the server starts, beside
 * readSettings: a file it refuses is a SettingsError naming the file and the field.
 */
export function beaconChainsOf(settings: { beaconChains?: string }): ReadonlyMap<string, BeaconChain> {
  let configured: BeaconChain[] = [];
  if (settings.beaconChains !== undefined) {
    try {
      configured = beaconChainsFromFile(settings.beaconChains, SETTING_NAMES.beaconChains.name);
    } catch (error) {
      throw new SettingsError([(error as Error).message]);
    }
  }
  return new Map([...KNOWN_BEACON_CHAINS, ...configured].map((chain) => [chain.chain, chain]));
}
