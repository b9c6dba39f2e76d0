/**
 * Every setting of Arbiter, local server and AWS functions alike: one ARBITER_* name each.
 * The names the functions read before (`oldNames`) are still accepted, with a warning, for
 * one release, so that a stack deployed before keeps running until it is deployed again.
 * This file holds the names only (no schema, no dependency): the stack and the lightest
 * functions import it; settings.ts reads and checks the values.
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

export const SETTING_NAMES = {
  port: { name: 'ARBITER_PORT', oldNames: ['PORT'], where: 'local', byDefault: '8787', meaning: 'The port the local server listens on (0: any free port).' },
  host: { name: 'ARBITER_HOST', oldNames: ['HOST'], where: 'local', byDefault: '127.0.0.1 (this machine only)', meaning: 'The address the local server listens on; 0.0.0.0 or :: for every address of the machine.' },
  dataDir: { name: 'ARBITER_DATA_DIR', oldNames: [], where: 'local', byDefault: '.arbiter-data', meaning: 'Where the local server keeps its store, its signing keys, its seed and token keys and stored exports.' },
  publicUrl: { name: 'ARBITER_PUBLIC_URL', oldNames: [], where: 'both', byDefault: 'the address it listens on; on AWS the stack sets the API\'s URL on the notification delivery function, and on the commands function when e-mail is offered', meaning: 'The origin people reach the local server at (a proxy\'s https://arbiter.example.org): the origin of the links it hands out. An origin only: no path.' },
  corsOrigins: { name: 'ARBITER_CORS_ORIGINS', oldNames: ['PUSH_ALLOWED_ORIGINS'], where: 'both', byDefault: 'none locally; * for the push socket on AWS', meaning: 'Origins of web pages allowed to call the API and open the push socket, separated by commas; * for any.' },
  expiry: { name: 'ARBITER_ABANDONED_GAME_DAYS', oldNames: ['ABANDONED_GAME_DAYS'], where: 'both', byDefault: '0 (games are kept); the AWS stack sets 90', meaning: 'Days without a command after which an unsealed game of no tournament is deleted; 0 for never.' },
  creationQuota: { name: 'ARBITER_CREATION_QUOTA_PER_HOUR', oldNames: ['CREATION_QUOTA_PER_HOUR'], where: 'both', byDefault: '0 (no quota); the AWS stack sets its own', meaning: 'Games and tournaments one address may create per hour without a tournament\'s token; 0 for no quota.' },
  pushConnectionsPerAddress: { name: 'ARBITER_PUSH_CONNECTIONS_PER_ADDRESS', oldNames: [], where: 'local', byDefault: 'the push channel\'s own limit (docs/push.md)', meaning: 'Push connections one client address may hold open at once.' },
  longPollMaxSeconds: { name: 'ARBITER_LONG_POLL_MAX_SECONDS', oldNames: ['LONG_POLL_MAX_SECONDS'], where: 'aws', byDefault: '20', meaning: 'The longest a long poll waits for new commits before answering (the reads function\'s timeout bounds it).' },
  tableName: { name: 'ARBITER_TABLE_NAME', oldNames: ['TABLE_NAME'], where: 'aws', byDefault: 'none (set by the stack)', meaning: 'The DynamoDB table of commits, games and tokens.' },
  seedTableName: { name: 'ARBITER_SEED_TABLE_NAME', oldNames: [], where: 'aws', byDefault: 'none: the function reaches no seed (set by the stack on the functions that roll)', meaning: 'The DynamoDB table of the games\' sealed server seeds, apart from everything else: only the functions that roll dice can reach it.' },
  connectionsTableName: { name: 'ARBITER_CONNECTIONS_TABLE_NAME', oldNames: ['CONNECTIONS_TABLE_NAME'], where: 'aws', byDefault: 'none (set by the stack)', meaning: 'The DynamoDB table of push subscriptions.' },
  pushCallbackUrl: { name: 'ARBITER_PUSH_CALLBACK_URL', oldNames: ['PUSH_CALLBACK_URL'], where: 'aws', byDefault: 'none (set by the stack)', meaning: 'The push WebSocket stage\'s management endpoint.' },
  pushUrl: { name: 'ARBITER_PUSH_URL', oldNames: ['PUSH_URL'], where: 'aws', byDefault: 'none: the web page follows games by polling', meaning: 'The push WebSocket address the web page follows games on.' },
  exportOrigin: { name: 'ARBITER_EXPORT_ORIGIN', oldNames: ['EXPORT_ORIGIN'], where: 'aws', byDefault: 'none', meaning: 'The origin of the export bucket, which the verify page may fetch from.' },
  exportEndpoint: { name: 'ARBITER_EXPORT_ENDPOINT', oldNames: [], where: 'aws', byDefault: 'none: exports are answered inline', meaning: 'The export bucket\'s endpoint, where large exports are stored and linked.' },
  exportRegion: { name: 'ARBITER_EXPORT_REGION', oldNames: [], where: 'aws', byDefault: 'AWS_REGION', meaning: 'The export bucket\'s region.' },
  exportJobFunction: { name: 'ARBITER_EXPORT_JOB_FUNCTION', oldNames: [], where: 'aws', byDefault: 'none: jobs run in the function that starts them', meaning: 'The function that makes tournament exports, started asynchronously.' },
  exportPrefix: { name: 'ARBITER_EXPORT_PREFIX', oldNames: [], where: 'aws', byDefault: 'exports/', meaning: 'The key prefix of export objects (the functions\' roles are limited to it).' },
  signingKeyId: { name: 'ARBITER_SIGNING_KEY_ID', oldNames: ['SIGNING_KEY_ID'], where: 'aws', byDefault: 'none (set by the stack)', meaning: 'The KMS key of the first signing generation: names the key ring item.' },
  signs: { name: 'ARBITER_SIGNS', oldNames: [], where: 'aws', byDefault: 'false', meaning: 'true for the one function that signs commits (commands); the others only publish public keys.' },
  seedKeyId: { name: 'ARBITER_SEED_KEY_ID', oldNames: ['SEED_KEY_ID'], where: 'aws', byDefault: 'none: the function opens no seed', meaning: 'The KMS key that encrypts each game\'s server seed.' },
  tokenKeyId: { name: 'ARBITER_TOKEN_KEY_ID', oldNames: ['TOKEN_KEY_ID'], where: 'aws', byDefault: 'none: the function mints no token', meaning: 'The KMS key that derives the tokens of a repeated creation and the keyed hash of client addresses.' },
  drandRelays: { name: 'ARBITER_DRAND_RELAYS', oldNames: [], where: 'both', byDefault: 'none: games with beacon dice are refused', meaning: 'Base URLs of drand relays (https://api.drand.sh, …), separated by commas, asked in this order for the beacon rounds of beacon games (docs/beacon.md).' },
  notifyQueueUrl: { name: 'ARBITER_NOTIFY_QUEUE_URL', oldNames: [], where: 'aws', byDefault: 'none: the push stream function hands no commit to notifications', meaning: 'The SQS queue the table\'s stream function puts each game with a new commit on, for the notification delivery function (docs/deploy.md#notifications).' },
  fanOutQueueUrl: { name: 'ARBITER_FAN_OUT_QUEUE_URL', oldNames: [], where: 'aws', byDefault: 'none (set by the stack): the push stream function posts to subscribers itself', meaning: 'The SQS FIFO queue the push stream function puts each game\'s new commits on, one message per slice of its subscribers, for the fan-out function (docs/push.md).' },
  longPollSlots: { name: 'ARBITER_LONG_POLL_SLOTS', oldNames: [], where: 'aws', byDefault: 'none (set by the stack): long polls are not counted', meaning: 'Long polls that may wait at once in the reads function; one more is answered 429 with Retry-After (docs/push.md).' },
  sesFrom: { name: 'ARBITER_SES_FROM', oldNames: [], where: 'aws', byDefault: 'none: e-mail subscriptions are refused on AWS', meaning: 'The From address of notification mail sent through Amazon SES: an identity verified in SES (the address, or its domain).' },
  beaconChains: { name: 'ARBITER_BEACON_CHAINS', oldNames: [], where: 'both', byDefault: 'none: quicknet only', meaning: 'The path of a JSON file listing extra drand chains a beacon game may name (a private network, tests): a list of { name, chainHash, publicKey, period, genesis, scheme }.' },
  notifyAllowLoopback: { name: 'ARBITER_NOTIFY_ALLOW_LOOPBACK', oldNames: [], where: 'local', byDefault: '0: notifications go to public https addresses only', meaning: 'With 1, webhooks, Discord and Slack notifications may go to http and https addresses on this machine (127.0.0.1, ::1, localhost): for local use and tests (docs/notifications.md).' },
  smtpUrl: { name: 'ARBITER_SMTP_URL', oldNames: [], where: 'local', byDefault: 'none: e-mail subscriptions are refused', meaning: 'The SMTP server notification mails go through: smtp://host:port or smtps://user:password@host:port (docs/notifications.md).' },
  smtpFrom: { name: 'ARBITER_SMTP_FROM', oldNames: [], where: 'local', byDefault: 'arbiter@localhost', meaning: 'The From address of notification mails: name@domain or Name <name@domain>; anything else stops the start (docs/notifications.md).' },
} as const satisfies Record<string, SettingDefinition>;

export type SettingKey = keyof typeof SETTING_NAMES;

export const settingName = (key: SettingKey): string => SETTING_NAMES[key].name;

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The text of one setting under its name or an old one (unset or blank: undefined). An old
 * name in use adds a warning; an old and a new name that disagree add a problem.
 */
export function rawSetting(env: Environment, key: SettingKey, problems: string[], warnings: string[]): string | undefined {
  const { name, oldNames } = SETTING_NAMES[key] as SettingDefinition;
  const current = present(env[name]);
  for (const old of oldNames) {
    const value = present(env[old]);
    if (value === undefined) continue;
    if (current !== undefined && current !== value) {
      problems.push(`${old} and ${name} are both set and disagree: keep ${name} only`);
      continue;
    }
    warnings.push(`${old} is the old name of ${name}: rename it, the old name is read for one more release only`);
    if (current === undefined) return value;
  }
  return current;
}

export const present = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value);

/** Settings refused: the message names each one and says what it takes; it never holds a stack trace. */
export class SettingsError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('; '));
    this.name = 'SettingsError';
  }
}
