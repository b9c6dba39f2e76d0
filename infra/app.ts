// The CDK app (cdk.json): `npm run synth` offline, `npx cdk deploy` with credentials.
// Settings are context values (`-c name=value`, or cdk.json's "context"); docs/deploy.md lists them.
import { App } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ArbiterStack, type ArbiterStackProps } from './arbiterStack';
import { type TracingSetting } from './operations';
import { checkSigningKeys, CURRENT_SIGNING_KEY_CONTEXT } from './signingKeyGuard';

const app = new App();
const context = (name: string): string | undefined => {
  const value = app.node.tryGetContext(name);
  return value === undefined || value === null || String(value).trim() === '' ? undefined : String(value).trim();
};
/** A whole number; `none` for no reservation. */
const concurrency = (name: string): number | null | undefined => {
  const value = context(name);
  if (value === undefined) return undefined;
  if (value === 'none') return null;
  if (!/^[0-9]+$/.test(value)) throw new Error(`-c ${name}= takes a whole number or none, not ${JSON.stringify(value)}`);
  return Number(value);
};
const wholeNumber = (name: string): number | undefined => {
  const value = context(name);
  if (value === undefined) return undefined;
  if (!/^[0-9]+$/.test(value)) throw new Error(`-c ${name}= takes a whole number, not ${JSON.stringify(value)}`);
  return Number(value);
};
const retention = wholeNumber('logRetentionDays');
if (retention !== undefined && !Object.values(RetentionDays).includes(retention)) {
  throw new Error(`-c logRetentionDays= takes one of CloudWatch's retention periods: ${Object.values(RetentionDays).filter((v) => typeof v === 'number').join(', ')}`);
}

function drandRelays(): string[] | undefined {
  const value = context('drandRelays');
  if (value === undefined) return undefined;
  if (value === 'none') return [];
  return value.split(',').map((relay) => relay.trim());
}

const props: ArbiterStackProps = {
  description: 'Arbiter: verifiable, event-sourced combat resolution (Lambda, DynamoDB, HTTP API)',
  // `-c corsOrigins=<origin>,<origin>` limits CORS to those origins (default: any).
  corsOrigins: (context('corsOrigins') ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean),
  // `-c alarmTopicArn=<arn>`: an existing topic that gets every alarm too. (The email is the AlarmEmail parameter.)
  alarmTopicArn: context('alarmTopicArn'),
  // `-c commandsConcurrency=<n>|none`, `-c readsConcurrency=<n>|none`, `-c accountConcurrency=<n>`.
  commandsConcurrency: concurrency('commandsConcurrency'),
  readsConcurrency: concurrency('readsConcurrency'),
  accountConcurrency: wholeNumber('accountConcurrency'),
  // `-c logRetentionDays=<days>` (default 30).
  logRetention: retention as RetentionDays | undefined,
  // `-c api5xxPer5Minutes=<n>`: the 5xx answers in 5 minutes that raise the Api5xx alarm (default 5).
  api5xxPer5Minutes: wholeNumber('api5xxPer5Minutes'),
  // `-c signingKeys=<n>` (default 1): add one, deploy, then npm run rotate-key:aws (docs/deploy.md).
  signingKeys: wholeNumber('signingKeys'),
  // `-c retiredSigningKeys=<n>` (default 0): after a rotation, the keys it retired lose kms:Sign (docs/deploy.md).
  retiredSigningKeys: wholeNumber('retiredSigningKeys'),
  // `-c abandonedGameDays=<days>` (default 90; 0: games never expire), `-c creationQuotaPerHour=<n>` (default 60; 0: none).
  abandonedGameDays: wholeNumber('abandonedGameDays'),
  creationQuotaPerHour: wholeNumber('creationQuotaPerHour'),
  // `-c drandRelays=<url>,<url>` (default drand's public relays); `-c drandRelays=none`: no beacon games.
  drandRelays: drandRelays(),
  // `-c notificationMailFrom=<address>`: the From of notification mail, an identity verified in SES (default none: no e-mail subscriptions).
  notificationMailFrom: context('notificationMailFrom'),
  // `-c tracing=active|passthrough` (default passthrough: no traces billed), `-c commandP99Ms=<ms>` (default 2000): docs/deploy.md#the-dashboard-and-the-operations-alarms.
  tracing: context('tracing') as TracingSetting | undefined,
  commandP99Ms: wholeNumber('commandP99Ms'),
  // `-c edgeWebAclArn=<arn>`: the WebAclArn output of the ArbiterEdge stack (infra/edgeApp.ts): CloudFront and rate limits per client in front of both APIs.
  edgeWebAclArn: context('edgeWebAclArn'),
};
// A deploy that would take the grant off the key that signs now is refused here, before anything changes.
checkSigningKeys({ signingKeys: props.signingKeys, retiredSigningKeys: props.retiredSigningKeys, currentSigningKey: app.node.tryGetContext(CURRENT_SIGNING_KEY_CONTEXT) });
new ArbiterStack(app, 'Arbiter', props);
