import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSettings, required, SETTING_DEFINITIONS, SettingsError } from '../../../functions/config/settings';
import { compose } from '../../../functions/compose';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { hmacTokenMinter } from '../../../functions/application/tokenMinter';
import { MemoryEventStore } from '../../../functions/store/memoryStore';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';

// Read when the chains are asked for (beaconChains.test.ts), not with the other settings.
const chainsFile = '/srv/arbiter/beacon-chains.json';

const refusal = (env: Record<string, string>): string => {
  try {
    readSettings(env);
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as Error).message).not.toMatch(/\n\s+at /);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
};

describe('the settings', () => {
  it('reads every setting by its ARBITER_* name', () => {
    const { settings, warnings } = readSettings({
      ARBITER_PORT: '9000',
      ARBITER_HOST: '0.0.0.0',
      ARBITER_DATA_DIR: '/srv/arbiter',
      ARBITER_PUBLIC_URL: 'https://arbiter.example.org/',
      ARBITER_CORS_ORIGINS: 'https://a.test, https://b.test',
      ARBITER_ABANDONED_GAME_DAYS: '30',
      ARBITER_CREATION_QUOTA_PER_HOUR: '20',
      ARBITER_PUSH_CONNECTIONS_PER_ADDRESS: '50',
      ARBITER_LONG_POLL_MAX_SECONDS: '10',
      ARBITER_TABLE_NAME: 'games',
      ARBITER_SEED_TABLE_NAME: 'seeds',
      ARBITER_CONNECTIONS_TABLE_NAME: 'connections',
      ARBITER_PUSH_CALLBACK_URL: 'https://push.example.test/live',
      ARBITER_PUSH_URL: 'wss://push.example.test/live',
      ARBITER_EXPORT_ORIGIN: 'https://exports.example.test',
      ARBITER_EXPORT_ENDPOINT: 'https://exports.example.test',
      ARBITER_EXPORT_REGION: 'eu-west-3',
      ARBITER_EXPORT_JOB_FUNCTION: 'Arbiter-ExportJobFunction',
      ARBITER_EXPORT_PREFIX: 'exports/',
      ARBITER_SIGNING_KEY_ID: 'arn:aws:kms:eu-west-3:1:key/sign',
      ARBITER_SIGNS: 'true',
      ARBITER_SEED_KEY_ID: 'arn:aws:kms:eu-west-3:1:key/seed',
      ARBITER_TOKEN_KEY_ID: 'arn:aws:kms:eu-west-3:1:key/token',
      ARBITER_DRAND_RELAYS: 'https://api.drand.sh/, https://drand.cloudflare.com',
      ARBITER_BEACON_CHAINS: chainsFile,
      ARBITER_NOTIFY_ALLOW_LOOPBACK: '1',
      ARBITER_SMTP_URL: 'smtp://127.0.0.1:2525',
      ARBITER_SMTP_FROM: 'arbiter@club.example.org',
      ARBITER_NOTIFY_QUEUE_URL: 'https://sqs.eu-west-3.amazonaws.com/1/notify',
      ARBITER_FAN_OUT_QUEUE_URL: 'https://sqs.eu-west-3.amazonaws.com/1/fan-out.fifo',
      ARBITER_LONG_POLL_SLOTS: '60',
      ARBITER_SES_FROM: 'arbiter@example.org',
    });
    expect(warnings).toEqual([]);
    expect(settings).toEqual({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/srv/arbiter',
      publicUrl: 'https://arbiter.example.org',
      corsOrigins: ['https://a.test', 'https://b.test'],
      expiry: { afterDays: 30 },
      creationQuota: { perHour: 20 },
      pushConnectionsPerAddress: 50,
      longPollMaxSeconds: 10,
      tableName: 'games',
      seedTableName: 'seeds',
      connectionsTableName: 'connections',
      pushCallbackUrl: 'https://push.example.test/live',
      pushUrl: 'wss://push.example.test/live',
      exportOrigin: 'https://exports.example.test',
      exportEndpoint: 'https://exports.example.test',
      exportRegion: 'eu-west-3',
      exportJobFunction: 'Arbiter-ExportJobFunction',
      exportPrefix: 'exports/',
      signingKeyId: 'arn:aws:kms:eu-west-3:1:key/sign',
      signs: true,
      seedKeyId: 'arn:aws:kms:eu-west-3:1:key/seed',
      tokenKeyId: 'arn:aws:kms:eu-west-3:1:key/token',
      drandRelays: ['https://api.drand.sh', 'https://drand.cloudflare.com'],
      beaconChains: chainsFile,
      notifyAllowLoopback: true,
      smtpUrl: 'smtp://127.0.0.1:2525',
      smtpFrom: 'arbiter@club.example.org',
      notifyQueueUrl: 'https://sqs.eu-west-3.amazonaws.com/1/notify',
      fanOutQueueUrl: 'https://sqs.eu-west-3.amazonaws.com/1/fan-out.fifo',
      longPollSlots: 60,
      sesFrom: 'arbiter@example.org',
    });
    expect(Object.keys(settings).sort()).toEqual(SETTING_DEFINITIONS.map((d) => d.key).sort());
  });

  it('leaves unset and blank settings out, for each caller to apply its default; 0 days and 0 per hour mean none', () => {
    expect(readSettings({}).settings).toEqual({});
    expect(readSettings({ ARBITER_PORT: ' ', ARBITER_PUBLIC_URL: '', ARBITER_ABANDONED_GAME_DAYS: '0', ARBITER_CREATION_QUOTA_PER_HOUR: '0' }).settings).toEqual({});
    expect(readSettings({ ARBITER_PORT: '0' }).settings).toEqual({ port: 0 });
  });

  it('refuses each value it cannot take, naming the setting', () => {
    const bad: Record<string, string[]> = {
      ARBITER_PORT: ['http', '-1', '65536', '80.5'],
      ARBITER_PUBLIC_URL: ['https://arbiter.example.org/games', 'ftp://arbiter.example.org', 'http://0.0.0.0:8787', 'arbiter.example.org', 'https://a:b@arbiter.example.org'],
      ARBITER_ABANDONED_GAME_DAYS: ['-1', '1.5', 'ninety', '9999'],
      ARBITER_CREATION_QUOTA_PER_HOUR: ['-3', 'lots', '2000000'],
      ARBITER_PUSH_CONNECTIONS_PER_ADDRESS: ['0', '2.5', 'many', '1e9'],
      ARBITER_LONG_POLL_MAX_SECONDS: ['0', 'forever', '901'],
      ARBITER_PUSH_CALLBACK_URL: ['not a url', 'ftp://push.example.test'],
      ARBITER_PUSH_URL: ['https://push.example.test'],
      ARBITER_EXPORT_ORIGIN: ['exports'],
      ARBITER_EXPORT_ENDPOINT: ['s3://bucket'],
      ARBITER_SIGNS: ['yes', '1'],
      ARBITER_NOTIFY_QUEUE_URL: ['notify', 'sqs://queue'],
      ARBITER_SES_FROM: ['arbiter', 'Arbiter <arbiter@example.org>', 'a@b', 'a@example.org, b@example.org'],
      ARBITER_DRAND_RELAYS: ['api.drand.sh', 'ftp://api.drand.sh', 'https://api.drand.sh,', 'https://a.test,,https://b.test', 'https://key:secret@api.drand.sh', 'https://api.drand.sh/?key=1'],
    };
    for (const [name, values] of Object.entries(bad)) {
      for (const value of values) expect(refusal({ [name]: value, AWS_REGION: 'eu-west-1', ARBITER_SIGNING_KEY_ID: 'k' }), `${name}=${value}`).toContain(name);
    }
    expect(refusal({ ARBITER_PUBLIC_URL: 'https://arbiter.example.org/games' })).toContain('ARBITER_PUBLIC_URL must be an http or https origin');
  });

  it('refuses settings that contradict each other', () => {
    expect(refusal({ ARBITER_EXPORT_ENDPOINT: 'https://exports.example.test' })).toBe(
      "ARBITER_EXPORT_ENDPOINT is set without ARBITER_EXPORT_REGION (or AWS_REGION): the export bucket's region is needed to sign its requests",
    );
    expect(readSettings({ ARBITER_EXPORT_ENDPOINT: 'https://exports.example.test', AWS_REGION: 'eu-west-1' }).settings.exportEndpoint).toBe('https://exports.example.test');
    expect(refusal({ ARBITER_SIGNS: 'true' })).toBe('ARBITER_SIGNS is true without ARBITER_SIGNING_KEY_ID: a function that signs needs its signing key');
    expect(refusal({ TABLE_NAME: 'old', ARBITER_TABLE_NAME: 'new' })).toBe('TABLE_NAME and ARBITER_TABLE_NAME are both set and disagree: keep ARBITER_TABLE_NAME only');
  });

  it('names every refusal at once', () => {
    const message = refusal({ ARBITER_PORT: 'x', ARBITER_ABANDONED_GAME_DAYS: 'y' });
    expect(message).toContain('ARBITER_PORT');
    expect(message).toContain('ARBITER_ABANDONED_GAME_DAYS');
  });

  it('still reads each old name, with a warning naming the new one', () => {
    const old: Record<string, [string, unknown]> = {
      PORT: ['8080', { port: 8080 }],
      HOST: ['::', { host: '::' }],
      PUSH_ALLOWED_ORIGINS: ['*', { corsOrigins: ['*'] }],
      ABANDONED_GAME_DAYS: ['90', { expiry: { afterDays: 90 } }],
      CREATION_QUOTA_PER_HOUR: ['100', { creationQuota: { perHour: 100 } }],
      LONG_POLL_MAX_SECONDS: ['10', { longPollMaxSeconds: 10 }],
      TABLE_NAME: ['games', { tableName: 'games' }],
      CONNECTIONS_TABLE_NAME: ['connections', { connectionsTableName: 'connections' }],
      PUSH_CALLBACK_URL: ['https://push.example.test/live', { pushCallbackUrl: 'https://push.example.test/live' }],
      PUSH_URL: ['wss://push.example.test/live', { pushUrl: 'wss://push.example.test/live' }],
      EXPORT_ORIGIN: ['https://exports.example.test', { exportOrigin: 'https://exports.example.test' }],
      SIGNING_KEY_ID: ['k1', { signingKeyId: 'k1' }],
      SEED_KEY_ID: ['k2', { seedKeyId: 'k2' }],
      TOKEN_KEY_ID: ['k3', { tokenKeyId: 'k3' }],
    };
    const documented = SETTING_DEFINITIONS.flatMap((d) => d.oldNames);
    expect(Object.keys(old).sort()).toEqual([...documented].sort());
    for (const [name, [value, expected]] of Object.entries(old)) {
      const { settings, warnings } = readSettings({ [name]: value });
      expect(settings, name).toEqual(expected);
      const current = SETTING_DEFINITIONS.find((d) => d.oldNames.includes(name))!.name;
      expect(warnings, name).toEqual([`${name} is the old name of ${current}: rename it, the old name is read for one more release only`]);
    }
    // The same value under both names: read, and the old one still warned about.
    expect(readSettings({ TABLE_NAME: 'games', ARBITER_TABLE_NAME: 'games' }).warnings).toHaveLength(1);
    // An old name's bad value is refused under the new name's rule.
    expect(refusal({ ABANDONED_GAME_DAYS: 'ninety' })).toContain('ARBITER_ABANDONED_GAME_DAYS');
  });

  it('names the setting a caller needs and does not have', () => {
    expect(() => required({}, 'tableName')).toThrow('ARBITER_TABLE_NAME is not set');
    expect(required({ tableName: 'games' }, 'tableName')).toBe('games');
  });
});

describe('compose()', () => {
  const adapters = { store: new MemoryEventStore(), signer: signerFromKey(generateSigningKey()) };

  it('refuses expiring games without a lease store, and a creation quota without a counter and a token key, naming the setting', () => {
    expect(() => compose({ expiry: { afterDays: 30 } }, adapters)).toThrow('ARBITER_ABANDONED_GAME_DAYS is set, but this service has no lease store');
    expect(() => compose({ creationQuota: { perHour: 5 } }, adapters)).toThrow('ARBITER_CREATION_QUOTA_PER_HOUR is set, but this service has no creation counter or no token key');
    expect(() => compose({ creationQuota: { perHour: 5 } }, { ...adapters, tokenMinter: hmacTokenMinter(Buffer.alloc(32, 1)) })).toThrow(SettingsError);
  });

  it('builds a service that counts creations when given the quota, a counter and a token key', async () => {
    const counts = new Map<string, number>();
    const creationCounter = {
      count: async (client: string, windowEnd: number, limit: number) => {
        const key = `${client}@${windowEnd}`;
        const n = counts.get(key) ?? 0;
        if (n >= limit) return false;
        counts.set(key, n + 1);
        return true;
      },
    };
    const service = compose({ creationQuota: { perHour: 1 } }, { ...adapters, store: new MemoryEventStore(), seedVault: aesSeedVault(newSeedKey()), tokenMinter: hmacTokenMinter(Buffer.alloc(32, 2)), creationCounter, now: () => '2026-11-27T01:00:00.000Z' });
    expect(counts.size).toBe(0);
    await service.createGame({ ruleset: 'dice' }, undefined, undefined, '192.0.2.1');
    await expect(service.createGame({ ruleset: 'dice' }, undefined, undefined, '192.0.2.1')).rejects.toMatchObject({ status: 429 });
    expect([...counts.values()]).toEqual([1]);
  });
});

describe('the notification settings', () => {
  it('take 1 or 0 for ARBITER_NOTIFY_ALLOW_LOOPBACK and an smtp:// or smtps:// URL, refusing anything else by name', () => {
    expect(readSettings({ ARBITER_NOTIFY_ALLOW_LOOPBACK: '0' }).settings.notifyAllowLoopback).toBe(false);
    expect(() => readSettings({ ARBITER_NOTIFY_ALLOW_LOOPBACK: 'yes' })).toThrow(/ARBITER_NOTIFY_ALLOW_LOOPBACK is 1 or 0/);
    expect(readSettings({ ARBITER_SMTP_URL: 'smtps://u:p@mail.example.org:465' }).settings.smtpUrl).toBe('smtps://u:p@mail.example.org:465');
    expect(() => readSettings({ ARBITER_SMTP_URL: 'http://mail.example.org' })).toThrow(/ARBITER_SMTP_URL is a URL \(smtp or smtps\)/);
  });

  it('never repeat a URL setting that may hold a password, unparseable or of another scheme (found in review)', () => {
    for (const value of ['smtps://arbiter:pa#ss@mail.example.org', 'smtp+tls://arbiter:s3cret-pw@mail.example.org']) {
      let message = '';
      try {
        readSettings({ ARBITER_SMTP_URL: value });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^ARBITER_SMTP_URL is a URL/);
      expect(message).not.toMatch(/pa#ss|s3cret-pw|arbiter:/);
    }
  });
});

describe('docs/settings.md', () => {
  it('lists every setting with its old names', () => {
    const page = readFileSync(join(import.meta.dirname, '../../../docs/settings.md'), 'utf8');
    for (const d of SETTING_DEFINITIONS) {
      const row = page.split('\n').find((line) => line.startsWith(`| \`${d.name}\` |`));
      expect(row, d.name).toBeDefined();
      for (const old of d.oldNames) expect(row, d.name).toContain(`\`${old}\``);
    }
  });
});
