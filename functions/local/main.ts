// `npm start`: the API on http://127.0.0.1:8787 with the embedded DynamoDB.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// Every file the server creates (keys, the store's LevelDB) is for this user only.
process.umask(0o077);

import { resolve } from 'node:path';
import { lockDataDir } from './dataDirLock';
import { pinArguments, retiredKeyLines } from './keyBanner';
import { loadKeyRing } from './keyFiles';
import { startLocalService } from './localService';
import { isWildcardHost } from './publicUrl';
import { readSettings, type Settings } from '../config/settings';
import { beaconChainsOf } from '../config/beaconChains';
import { BeaconRelay } from '../application/beaconRelay';
import { beaconSignatureValid } from '../../domain/beacon/blsSignature';
import { confirmationSender } from '../notify/email/confirmationMail';
import { emailChannel } from '../notify/email/emailChannel';
import type { MailTransport } from '../notify/email/outgoingMail';
import { smtpTransportOf } from '../notify/email/smtpTransport';

let settings: Settings;
let warnings: string[];
let beaconChains: ReturnType<typeof beaconChainsOf>;
let mailTransport: MailTransport | undefined;
try {
  ({ settings, warnings } = readSettings(process.env));
  // The operator's chains file (ARBITER_BEACON_CHAINS) is read and checked here: a bad one stops the start.
  beaconChains = beaconChainsOf(settings);
  // ARBITER_SMTP_URL and ARBITER_SMTP_FROM: a bad one stops the start too (the server is not reached before the first mail).
  mailTransport = smtpTransportOf(settings);
} catch (error) {
  console.error(`Arbiter could not start: ${(error as Error).message}`);
  process.exit(1);
}
const port = settings.port ?? 8787;
const host = settings.host ?? '127.0.0.1';
const dataDir = resolve(settings.dataDir ?? '.arbiter-data');
const { publicUrl, expiry, creationQuota } = settings;
const pushLimits = settings.pushConnectionsPerAddress === undefined ? {} : { maxConnectionsPerClient: settings.pushConnectionsPerAddress };

const lock = lockDataDir(dataDir);
if ('heldBy' in lock) {
  console.error(`Arbiter could not start: the data directory ${dataDir} is in use by another Arbiter (pid ${lock.heldBy}): stop it or set ARBITER_DATA_DIR`);
  process.exit(1);
}
let keys: ReturnType<typeof loadKeyRing>;
try {
  keys = loadKeyRing(dataDir);
} catch (error) {
  console.error(`Arbiter could not start: ${(error as Error).message}`);
  lock.release();
  process.exit(1);
}
const { ring, created } = keys;

// The SMTP server as printed: its scheme, host and port, never its sign-in.
const smtpServer = (url: string) => `${new URL(url).protocol}//${new URL(url).host}`;

// Listened for before the server starts: a stop asked for while it starts waits for the start, then closes cleanly.
let stopping = false;
let started: Awaited<ReturnType<typeof startLocalService>> | undefined;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  if (!started) return;
  await started.close();
  mailTransport?.close();
  lock.release();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

// The store's thread ending under a running server is fatal: stop, so that whoever runs Arbiter starts it again.
const onStoreLost = (error: Error) => {
  console.error(`Arbiter stopped: ${error.message}. What was stored is kept in ${dataDir}: start Arbiter again.`);
  lock.release();
  process.exit(1);
};
// Beacon games are offered when relays are set (ARBITER_DRAND_RELAYS): every round they answer is checked against its chain's key.
const beaconSource = settings.drandRelays?.length ? new BeaconRelay({ relays: settings.drandRelays, check: beaconSignatureValid }) : undefined;
const notifications = {
  allowLoopback: settings.notifyAllowLoopback ?? false,
  ...(mailTransport ? { email: { channel: emailChannel(mailTransport), confirmations: confirmationSender(mailTransport) } } : {}),
};
const local = await startLocalService({ dataDir, keyRing: ring, port, host, publicUrl, corsOrigins: settings.corsOrigins ?? [], expiry, creationQuota, pushLimits, onStoreLost, beaconChains, beaconSource, notifications }).catch((error: NodeJS.ErrnoException) => {
  const reasons: Record<string, string> = {
    EADDRINUSE: `port ${port} on ${host} is already in use: stop the other server or set ARBITER_PORT`,
    EACCES: `port ${port} needs privileges: choose ARBITER_PORT above 1023`,
  };
  console.error(`Arbiter could not start: ${reasons[error.code ?? ''] ?? error.message}`);
  mailTransport?.close();
  lock.release();
  process.exit(1);
});
started = local;
console.log(`Arbiter listening on ${local.url}${isWildcardHost(host) ? ` (and every other address of this machine: ARBITER_HOST=${host})` : ''}`);
if (local.publicUrl !== local.url) console.log(`  public URL: ${local.publicUrl} (ARBITER_PUBLIC_URL: the origin in the links it hands out)`);
else if (isWildcardHost(host)) console.log('  links to large exports name 127.0.0.1: set ARBITER_PUBLIC_URL to the address other machines use (README, docs/exports.md)');
console.log(`  data: ${dataDir}${created ? ' (new signing key generated)' : ''}`);
console.log(`  signing key fingerprint: ${local.service.signer.fingerprint}`);
for (const line of retiredKeyLines(local.service.signer.keysDocument())) console.log(line);
console.log('    publish every fingerprint: players and organizers pin them all to verify every game (docs/fairness.md, "Pin the server key")');
console.log(`  verifier: curl -sO ${local.publicUrl}/verifier.mjs, then node verifier.mjs game.json ${pinArguments(local.service.signer.keysDocument())}`);
console.log(`    or pin every key once: node verifier.mjs trust add ${local.publicUrl}`);
console.log(`  web app: ${local.publicUrl}/ (create a game, follow it live, verify an export)`);
console.log(`  push: ${local.publicUrl.replace(/^http/, 'ws')}/push (new commits as they happen, docs/push.md)`);
if (expiry) console.log(`  abandoned games: unsealed games of no tournament are deleted ${expiry.afterDays} days after their last command`);
if (mailTransport) console.log(`  e-mail: notification mails go through ${smtpServer(settings.smtpUrl!)} from ${mailTransport.from} (docs/notifications.md)`);
if (creationQuota) console.log(`  creation quota: ${creationQuota.perHour} games or tournaments per address per hour`);
console.log(`  try: curl -s ${local.publicUrl}/rulesets`);
// Once started, so that a refusal to start stays the first line on stderr.
for (const warning of warnings) console.error(`Arbiter: ${warning}`);

if (stopping) {
  stopping = false;
  await stop();
}
