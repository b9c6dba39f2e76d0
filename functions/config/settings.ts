import * as z from 'zod';
import { expiryPolicyOf, type ExpiryPolicy } from '../application/gameExpiry';
import { quotaPolicyOf, type QuotaPolicy } from '../application/creationQuota';
import { relayBaseOf } from '../application/beaconRelay';
import { publicUrlOf } from './publicUrl';
import { present, rawSetting, SettingsError, SETTING_NAMES, type Environment, type SettingDefinition, type SettingKey } from './settingNames';

export { settingName, SettingsError, type SettingDefinition, type SettingKey } from './settingNames';

const ORIGIN_LIST = z.string().transform((list) => list.split(',').map((o) => o.trim()).filter(Boolean));

function checked<T>(read: (value: string, name: string) => T) {
  return (name: string) =>
    z.string().transform((value, ctx) => {
      try {
        return read(value, name);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    });
}

function wholeNumber(from: number, to: number, what: string) {
  return checked((value, name) => {
    const n = Number(value.trim());
    if (value.trim() === '' || !Number.isInteger(n) || n < from || n > to) throw new Error(`${name} is a whole number from ${from} to ${to} (${what}): got ${JSON.stringify(value.slice(0, 32))}`);
    return n;
  });
}

// Blank values never get here: they are unset (settingNames.ts).
const text = checked((value) => value.trim());

const flag = checked((value, name) => {
  if (value !== 'true' && value !== 'false') throw new Error(`${name} is true or false: got ${JSON.stringify(value.slice(0, 32))}`);
  return value === 'true';
});

const urlOf = (protocols: readonly string[]) =>
  checked((value, name) => {
    let url: URL;
    try {
      url = new URL(value.trim());
    } catch {
      // Not echoed: a URL setting may carry a password (smtps://user:password@host).
      throw new Error(`${name} is a URL (${protocols.join(' or ')}): what it holds is not a URL (not shown, as it may hold a password; a "#", "/" or "@" in a password must be percent-encoded)`);
    }
    if (!protocols.includes(url.protocol.slice(0, -1))) throw new Error(`${name} is a URL (${protocols.join(' or ')}): got a ${JSON.stringify(url.protocol.slice(0, 16))} URL`);
    return value.trim();
  });

const relayList = checked((value, name) => {
  const relays = value.split(',').map((r) => r.trim());
  if (relays.some((r) => r === '')) throw new Error(`${name} is a list of relay URLs separated by commas, with none empty: got ${JSON.stringify(value.slice(0, 64))}`);
  return relays.map((relay) => {
    try {
      return relayBaseOf(relay);
    } catch (error) {
      throw new Error(`${name}: ${(error as Error).message} (each relay is an http or https base URL such as https://api.drand.sh)`);
    }
  });
});

/** Each setting read from its text by a zod schema that names the setting in its refusal. */
const SCHEMAS = {
  port: wholeNumber(0, 65535, 'the port; 0 for any free one'),
  host: text,
  dataDir: text,
  publicUrl: checked((value, name) => publicUrlOf(value, name)),
  corsOrigins: () => ORIGIN_LIST,
  expiry: checked((value, name) => expiryPolicyOf(value, name)),
  creationQuota: checked((value, name) => quotaPolicyOf(value, name)),
  pushConnectionsPerAddress: wholeNumber(1, 100_000, 'push connections per client address'),
  longPollMaxSeconds: wholeNumber(1, 900, 'seconds'),
  tableName: text,
  seedTableName: text,
  connectionsTableName: text,
  pushCallbackUrl: urlOf(['https', 'http']),
  pushUrl: urlOf(['wss', 'ws']),
  exportOrigin: urlOf(['https', 'http']),
  exportEndpoint: urlOf(['https', 'http']),
  exportRegion: text,
  exportJobFunction: text,
  exportPrefix: text,
  signingKeyId: text,
  signs: flag,
  seedKeyId: text,
  tokenKeyId: text,
  drandRelays: relayList,
  notifyQueueUrl: urlOf(['https', 'http']),
  fanOutQueueUrl: urlOf(['https', 'http']),
  longPollSlots: wholeNumber(1, 10_000, 'long polls waiting at once'),
  sesFrom: checked((value, name) => {
    const address = value.trim();
    if (!/^[^@\s<>"]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,}$/.test(address)) throw new Error(`${name} is one e-mail address (an SES verified identity): got ${JSON.stringify(value.slice(0, 64))}`);
    return address;
  }),
  // The path only: the file is read by beaconChainsOf (beaconChains.ts), which only the functions that offer beacon games import.
  beaconChains: text,
  notifyAllowLoopback: checked((value, name) => {
    if (!['1', '0', 'true', 'false'].includes(value.trim())) throw new Error(`${name} is 1 or 0: got ${JSON.stringify(value.slice(0, 32))}`);
    return value.trim() === '1' || value.trim() === 'true';
  }),
  smtpUrl: urlOf(['smtp', 'smtps']),
  smtpFrom: text,
} satisfies Record<SettingKey, (name: string) => z.ZodType<unknown, string>>;

export type Settings = { -readonly [K in SettingKey]?: z.output<ReturnType<(typeof SCHEMAS)[K]>> };

export const SETTING_DEFINITIONS: readonly (SettingDefinition & { key: SettingKey })[] = (Object.keys(SETTING_NAMES) as SettingKey[]).map((key) => ({ key, ...(SETTING_NAMES[key] as SettingDefinition) }));

export interface ReadSettings {
  settings: Settings;
  /** One line per old name still in use: say it where the operator reads (stderr, the function's log). */
  warnings: string[];
}

/**
 * Reads every setting from the environment. Unset (or empty) settings are left out; each
 * caller applies its own default. Refuses, naming the setting, a value it cannot take, an
 * old and a new name that disagree, and settings that contradict each other.
 */
export function readSettings(env: Environment): ReadSettings {
  const problems: string[] = [];
  const warnings: string[] = [];
  const settings: Record<string, unknown> = {};
  for (const key of Object.keys(SCHEMAS) as SettingKey[]) {
    const raw = rawSetting(env, key, problems, warnings);
    if (raw === undefined) continue;
    const parsed = (SCHEMAS[key](SETTING_NAMES[key].name) as z.ZodType<unknown, string>).safeParse(raw);
    if (parsed.success) {
      if (parsed.data !== undefined) settings[key] = parsed.data;
    } else {
      problems.push(...parsed.error.issues.map((issue) => issue.message));
    }
  }
  if (problems.length === 0) problems.push(...contradictions(settings as Settings, env));
  if (problems.length) throw new SettingsError(problems);
  return { settings: settings as Settings, warnings };
}

function contradictions(settings: Settings, env: Environment): string[] {
  const problems: string[] = [];
  if (settings.exportEndpoint !== undefined && settings.exportRegion === undefined && !present(env.AWS_REGION)) {
    problems.push(`${SETTING_NAMES.exportEndpoint.name} is set without ${SETTING_NAMES.exportRegion.name} (or AWS_REGION): the export bucket's region is needed to sign its requests`);
  }
  if (settings.signs && settings.signingKeyId === undefined) {
    problems.push(`${SETTING_NAMES.signs.name} is true without ${SETTING_NAMES.signingKeyId.name}: a function that signs needs its signing key`);
  }
  return problems;
}

/** The setting the caller cannot do without (a table name on AWS), refused by name when it is missing. */
export function required<K extends SettingKey>(settings: Settings, key: K): NonNullable<Settings[K]> {
  const value = settings[key];
  if (value === undefined) throw new SettingsError([`${SETTING_NAMES[key].name} is not set`]);
  return value as NonNullable<Settings[K]>;
}

export type { ExpiryPolicy, QuotaPolicy };
