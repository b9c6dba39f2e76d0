import { z } from 'zod';
import { expiryPolicyOf, type ExpiryPolicy } from '../application/gameExpiry';
import { quotaPolicyOf, type QuotaPolicy } from '../application/creationQuota';
import { publicUrlOf } from '../local/publicUrl';

/**
 * Every setting of Arbiter, local server and AWS functions alike: one ARBITER_* name each.
 * The names the functions read before (`oldNames`) are still accepted, with a warning, for
 * one release, so that a stack deployed before keeps running until it is deployed again.
 */
export interface SettingDefinition {
  name: string;
  oldNames: readonly string[];
  /** What the setting is, in a sentence an organizer understands (docs/settings.md). */
  meaning: string;
  /** What applies when it is unset, in words. */
  byDefault: string;
  where: 'local' | 'aws' | 'both';
}

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
    if (value.trim() === '' || !Number.isInteger(n) || n < from || n > to) throw new Error(`${name} is a whole number of ${what} from ${from} to ${to}: got ${JSON.stringify(value.slice(0, 32))}`);
    return n;
  });
}

const text = checked((value, name) => {
  if (value.trim() === '') throw new Error(`${name} is empty: give a value or leave it unset`);
  return value.trim();
});

const flag = checked((value, name) => {
  if (value !== 'true' && value !== 'false') throw new Error(`${name} is true or false: got ${JSON.stringify(value.slice(0, 32))}`);
  return value === 'true';
});

const httpsUrl = (protocols: readonly string[]) =>
  checked((value, name) => {
    let url: URL;
    try {
      url = new URL(value.trim());
    } catch {
      throw new Error(`${name} is a URL (${protocols.join(' or ')}): got ${JSON.stringify(value.slice(0, 64))}`);
    }
    if (!protocols.includes(url.protocol.slice(0, -1))) throw new Error(`${name} is a URL (${protocols.join(' or ')}): got ${JSON.stringify(value.slice(0, 64))}`);
    return value.trim();
  });

/** The settings, each read from its string by a zod schema that names the setting in its refusal. */
const SETTINGS = {
  port: { name: 'ARBITER_PORT', oldNames: ['PORT'], where: 'local', byDefault: '8787', meaning: 'The port the local server listens on (0: any free port).', schema: wholeNumber(0, 65535, 'a port') },
  host: { name: 'ARBITER_HOST', oldNames: ['HOST'], where: 'local', byDefault: '127.0.0.1 (this machine only)', meaning: 'The address the local server listens on; 0.0.0.0 or :: for every address of the machine.', schema: text },
  dataDir: { name: 'ARBITER_DATA_DIR', oldNames: [], where: 'local', byDefault: '.arbiter-data', meaning: 'Where the local server keeps its store, its signing keys, its seed and token keys and stored exports.', schema: text },
  publicUrl: { name: 'ARBITER_PUBLIC_URL', oldNames: [], where: 'local', byDefault: 'the address it listens on', meaning: 'The origin people reach the local server at (a proxy\'s https://arbiter.example.org): the origin of the links it hands out. An origin only: no path.', schema: checked((value, name) => publicUrlOf(value, name)) },
  corsOrigins: { name: 'ARBITER_CORS_ORIGINS', oldNames: ['PUSH_ALLOWED_ORIGINS'], where: 'both', byDefault: 'none locally; * for the push socket on AWS', meaning: 'Origins of web pages allowed to call the API and open the push socket, separated by commas; * for any.', schema: () => ORIGIN_LIST },
  expiry: { name: 'ARBITER_ABANDONED_GAME_DAYS', oldNames: ['ABANDONED_GAME_DAYS'], where: 'both', byDefault: '0 (games are kept); the AWS stack sets 90', meaning: 'Days without a command after which an unsealed game of no tournament is deleted; 0 for never.', schema: checked((value, name) => expiryPolicyOf(value, name)) },
  creationQuota: { name: 'ARBITER_CREATION_QUOTA_PER_HOUR', oldNames: ['CREATION_QUOTA_PER_HOUR'], where: 'both', byDefault: '0 (no quota); the AWS stack sets its own', meaning: 'Games and tournaments one address may create per hour without a tournament\'s token; 0 for no quota.', schema: checked((value, name) => quotaPolicyOf(value, name)) },
  pushConnectionsPerAddress: { name: 'ARBITER_PUSH_CONNECTIONS_PER_ADDRESS', oldNames: [], where: 'local', byDefault: 'the push channel\'s own limit (docs/push.md)', meaning: 'Push connections one client address may hold open at once.', schema: wholeNumber(1, 100_000, 'push connections per client address') },
  longPollMaxSeconds: { name: 'ARBITER_LONG_POLL_MAX_SECONDS', oldNames: ['LONG_POLL_MAX_SECONDS'], where: 'aws', byDefault: '20', meaning: 'The longest a long poll waits for new commits before answering (the reads function\'s timeout bounds it).', schema: wholeNumber(1, 900, 'seconds') },
  tableName: { name: 'ARBITER_TABLE_NAME', oldNames: ['TABLE_NAME'], where: 'aws', byDefault: 'none (set by the stack)', meaning: 'The DynamoDB table of commits, games and tokens.', schema: text },
  connectionsTableName: { name: 'ARBITER_CONNECTIONS_TABLE_NAME', oldNames: ['CONNECTIONS_TABLE_NAME'], where: 'aws', byDefault: 'none (set by the stack)', meaning: 'The DynamoDB table of push subscriptions.', schema: text },
  pushCallbackUrl: { name: 'ARBITER_PUSH_CALLBACK_URL', oldNames: ['PUSH_CALLBACK_URL'], where: 'aws', byDefault: 'none (set by the stack)', meaning: 'The push WebSocket stage\'s management endpoint.', schema: httpsUrl(['https', 'http']) },
  pushUrl: { name: 'ARBITER_PUSH_URL', oldNames: ['PUSH_URL'], where: 'aws', byDefault: 'none: the web page follows games by polling', meaning: 'The push WebSocket address the web page follows games on.', schema: httpsUrl(['wss', 'ws']) },
  exportOrigin: { name: 'ARBITER_EXPORT_ORIGIN', oldNames: ['EXPORT_ORIGIN'], where: 'aws', byDefault: 'none', meaning: 'The origin of the export bucket, which the verify page may fetch from.', schema: httpsUrl(['https', 'http']) },
  exportEndpoint: { name: 'ARBITER_EXPORT_ENDPOINT', oldNames: [], where: 'aws', byDefault: 'none: exports are answered inline', meaning: 'The export bucket\'s endpoint, where large exports are stored and linked.', schema: httpsUrl(['https', 'http']) },
  exportRegion: { name: 'ARBITER_EXPORT_REGION', oldNames: [], where: 'aws', byDefault: 'AWS_REGION', meaning: 'The export bucket\'s region.', schema: text },
  exportPrefix: { name: 'ARBITER_EXPORT_PREFIX', oldNames: [], where: 'aws', byDefault: 'exports/', meaning: 'The key prefix of export objects (the functions\' roles are limited to it).', schema: text },
  signingKeyId: { name: 'ARBITER_SIGNING_KEY_ID', oldNames: ['SIGNING_KEY_ID'], where: 'aws', byDefault: 'none (set by the stack)', meaning: 'The KMS key of the first signing generation: names the key ring item.', schema: text },
  signs: { name: 'ARBITER_SIGNS', oldNames: [], where: 'aws', byDefault: 'false', meaning: 'true for the one function that signs commits (commands); the others only publish public keys.', schema: flag },
  seedKeyId: { name: 'ARBITER_SEED_KEY_ID', oldNames: ['SEED_KEY_ID'], where: 'aws', byDefault: 'none: the function opens no seed', meaning: 'The KMS key that encrypts each game\'s server seed.', schema: text },
  tokenKeyId: { name: 'ARBITER_TOKEN_KEY_ID', oldNames: ['TOKEN_KEY_ID'], where: 'aws', byDefault: 'none: the function mints no token', meaning: 'The KMS key that derives the tokens of a repeated creation and the keyed hash of client addresses.', schema: text },
} as const satisfies Record<string, Omit<SettingDefinition, 'oldNames'> & { oldNames: readonly string[]; schema: (name: string) => z.ZodType<unknown, string> }>;

type Definitions = typeof SETTINGS;
export type SettingKey = keyof Definitions;
export type Settings = { -readonly [K in SettingKey]?: z.output<ReturnType<Definitions[K]['schema']>> };

export const SETTING_DEFINITIONS: readonly (SettingDefinition & { key: SettingKey })[] = (Object.keys(SETTINGS) as SettingKey[]).map((key) => {
  const { name, oldNames, meaning, byDefault, where } = SETTINGS[key];
  return { key, name, oldNames, meaning, byDefault, where };
});

export const settingName = (key: SettingKey): string => SETTINGS[key].name;

/** A setting refused: the message names it and says what it takes; it never holds a stack trace. */
export class SettingsError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('; '));
    this.name = 'SettingsError';
  }
}

export interface ReadSettings {
  settings: Settings;
  /** One line per old name still in use: say it where the operator reads (stderr, the function's log). */
  warnings: string[];
}

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Reads every setting from the environment. Unset (or empty) settings are left out; each
 * caller applies its own default. Refuses, naming the setting, a value it cannot take, an
 * old and a new name that disagree, and settings that contradict each other.
 */
export function readSettings(env: Environment): ReadSettings {
  const problems: string[] = [];
  const warnings: string[] = [];
  const settings: Record<string, unknown> = {};
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    const definition = SETTINGS[key];
    const raw = rawValue(env, definition, problems, warnings);
    if (raw === undefined) continue;
    const parsed = (definition.schema(definition.name) as z.ZodType<unknown, string>).safeParse(raw);
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

function rawValue(env: Environment, definition: { name: string; oldNames: readonly string[] }, problems: string[], warnings: string[]): string | undefined {
  const current = present(env[definition.name]);
  for (const old of definition.oldNames) {
    const value = present(env[old]);
    if (value === undefined) continue;
    if (current !== undefined && current !== value) {
      problems.push(`${old} and ${definition.name} are both set and disagree: keep ${definition.name} only`);
      continue;
    }
    warnings.push(`${old} is the old name of ${definition.name}: rename it, the old name is read for one more release only`);
    if (current === undefined) return value;
  }
  return current;
}

const present = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value);

function contradictions(settings: Settings, env: Environment): string[] {
  const problems: string[] = [];
  if (settings.exportEndpoint !== undefined && settings.exportRegion === undefined && !present(env.AWS_REGION)) {
    problems.push(`${SETTINGS.exportEndpoint.name} is set without ${SETTINGS.exportRegion.name} (or AWS_REGION): the export bucket's region is needed to sign its requests`);
  }
  if (settings.signs && settings.signingKeyId === undefined) {
    problems.push(`${SETTINGS.signs.name} is true without ${SETTINGS.signingKeyId.name}: a function that signs needs its signing key`);
  }
  return problems;
}

/** The setting the caller cannot do without (a table name on AWS), refused by name when it is missing. */
export function required<K extends SettingKey>(settings: Settings, key: K): NonNullable<Settings[K]> {
  const value = settings[key];
  if (value === undefined) throw new SettingsError([`${SETTINGS[key].name} is not set`]);
  return value as NonNullable<Settings[K]>;
}

export type { ExpiryPolicy, QuotaPolicy };
