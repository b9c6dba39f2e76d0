import { App } from 'aws-cdk-lib';
import { Template as CdkTemplate } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ArbiterStack, type ArbiterStackProps } from '../../infra/arbiterStack';
import { ACCOUNT, ADMINISTRATOR, decide, keysOf, REGION, resolver, rolesOf, type PolicyDocument, type Template } from './templatePolicies';

// IAM policy simulation (@cloud-copilot/iam-simulate) of the synthesized template: the key
// policies, and every role's policies, as AWS evaluates them in one account.

const synth = (props?: ArbiterStackProps): Template => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  return CdkTemplate.fromStack(new ArbiterStack(app, 'Arbiter', props)).toJSON() as Template;
};

let template: Template;
let roles: ReturnType<typeof rolesOf>;
let keys: ReturnType<typeof keysOf>;
beforeAll(() => {
  template = synth();
  roles = rolesOf(template);
  keys = keysOf(template);
});

/** A logical id without CDK's hash suffix. */
const named = (logicalId: string) => logicalId.replace(/[0-9A-F]{8}$/, '');
const key = (name: string, from = keys) => [...from.entries()].find(([id]) => named(id) === name)![1];
const table = (name: string) => resolver(template).arnOf(Object.keys(template.Resources).find((id) => named(id) === name)!, 'Arn');
const role = (name: string) => [...roles.entries()].find(([id]) => named(id) === name)![1];

/** Principals outside the stack that hold every permission in IAM. */
const OUTSIDERS = [
  { name: 'the account root', arn: `arn:aws:iam::${ACCOUNT}:root` },
  { name: 'an administrator role', arn: `arn:aws:iam::${ACCOUNT}:role/Administrator` },
  { name: "the CDK execution role's shape", arn: `arn:aws:iam::${ACCOUNT}:role/cdk-hnb659fds-cfn-exec-role-${ACCOUNT}-${REGION}` },
  { name: 'a CI user', arn: `arn:aws:iam::${ACCOUNT}:user/ci` },
];

/** Every principal to try: the outsiders with `*:*`, each role of the stack with its own policies, and each again with `*:*` added. */
function everyone(from = roles) {
  return [
    ...OUTSIDERS.map((o) => ({ ...o, role: undefined as string | undefined, policies: [ADMINISTRATOR] })),
    ...[...from.entries()].flatMap(([id, r]) => [
      { name: named(id), arn: r.arn, role: named(id), policies: r.policies },
      { name: `${named(id)} with *:* added to its IAM policies`, arn: r.arn, role: named(id), policies: [...r.policies, ADMINISTRATOR] },
    ]),
  ];
}

/** Who is allowed, among `everyone()`, to do `action` on `resource`. */
async function allowedTo(action: string, resource: string, resourcePolicy: PolicyDocument | undefined, context: Record<string, string | string[]> = {}, principals = everyone()) {
  const allowed: string[] = [];
  for (const p of principals) {
    if ((await decide({ principal: p.arn, policies: p.policies, action, resource, resourcePolicy, context })) === 'Allowed') allowed.push(p.name);
  }
  return allowed.sort();
}

const gameContext = { 'kms:EncryptionContextKeys': ['gameId'], 'kms:EncryptionContext:gameId': 'g-1' };
/** A role's name twice: with its own policies, and with `*:*` added (the key policy still lets it, it is named). */
const both = (...names: string[]) => names.flatMap((n) => [n, `${n} with *:* added to its IAM policies`]).sort();

describe('who can use the keys (S1): the key policies name the roles of each use, and deny it to every other principal', () => {
  it('signs with the signing key: the commands function, the reveal function, the export function (tournament heads) and the rotation role; nobody else, administrators included', async () => {
    const signing = key('SigningKey1');
    expect(await allowedTo('kms:Sign', signing.arn, signing.policy)).toEqual(both('BeaconRevealsRevealRole', 'CommandsFunctionRole', 'ExportJobRole', 'KeyRotationRole'));
  });

  it("opens a seed (Decrypt under a game's context): the commands and reveal functions; the key policy names the delivery function too (for subscriptions' targets)", async () => {
    const seed = key('SeedKey');
    // The delivery function's own policy limits it to a subscription's context; with *:* added, only the key policy holds, and it names the role.
    expect(await allowedTo('kms:Decrypt', seed.arn, seed.policy, gameContext)).toEqual(
      [...both('BeaconRevealsRevealRole', 'CommandsFunctionRole'), 'NotificationsDeliveryRole with *:* added to its IAM policies'].sort(),
    );
    // Under a subscription's context the delivery function's own policy allows it too; iam-simulate 0.1.173 reads no
    // `kms:EncryptionContext:<key>` condition (a lone StringLike on it never matches), so that case is not simulated here.
  });

  it('seals a seed (Encrypt) and derives tokens (GenerateMac): the commands function alone', async () => {
    const seed = key('SeedKey');
    const token = key('TokenKey');
    expect(await allowedTo('kms:Encrypt', seed.arn, seed.policy, gameContext)).toEqual(both('CommandsFunctionRole'));
    expect(await allowedTo('kms:GenerateMac', token.arn, token.policy)).toEqual(both('CommandsFunctionRole'));
  });

  it('lets nobody re-encrypt, make data keys or hand out a grant on the seed key', async () => {
    const seed = key('SeedKey');
    for (const action of ['kms:ReEncryptFrom', 'kms:GenerateDataKey', 'kms:CreateGrant']) expect(await allowedTo(action, seed.arn, seed.policy, gameContext), action).toEqual([]);
  });

  it('keeps administration for the account: describe, disable, change the policy, schedule deletion', async () => {
    const administrator = OUTSIDERS[1].arn;
    for (const { arn, policy } of [key('SigningKey1'), key('SeedKey'), key('TokenKey')]) {
      for (const action of ['kms:DescribeKey', 'kms:DisableKey', 'kms:PutKeyPolicy', 'kms:ScheduleKeyDeletion', 'kms:GetPublicKey']) {
        if (action === 'kms:GetPublicKey' && arn !== key('SigningKey1').arn) continue;
        expect(await decide({ principal: administrator, policies: [ADMINISTRATOR], action, resource: arn, resourcePolicy: policy }), `${action} ${arn}`).toBe('Allowed');
      }
    }
  });

  it('would let an administrator sign under the key policy the stack had before (kms:* for the account): the simulation tells the difference', async () => {
    const signing = key('SigningKey1');
    const before: PolicyDocument = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` }, Action: 'kms:*', Resource: '*' }] };
    expect(await decide({ principal: OUTSIDERS[1].arn, policies: [ADMINISTRATOR], action: 'kms:Sign', resource: signing.arn, resourcePolicy: before })).toBe('Allowed');
    expect(await decide({ principal: OUTSIDERS[1].arn, policies: [ADMINISTRATOR], action: 'kms:Sign', resource: signing.arn, resourcePolicy: signing.policy })).toBe('ExplicitlyDenied');
  });

  it('after a rotation, lets nobody sign with a retired key, the rotation role included; the current key signs as before', async () => {
    const rotated = synth({ signingKeys: 2, retiredSigningKeys: 1 });
    const rotatedKeys = keysOf(rotated);
    const principals = everyone(rolesOf(rotated));
    const retired = key('SigningKey1', rotatedKeys);
    const current = key('SigningKey2', rotatedKeys);
    expect(await allowedTo('kms:Sign', retired.arn, retired.policy, {}, principals)).toEqual([]);
    expect(await allowedTo('kms:Sign', current.arn, current.policy, {}, principals)).toEqual(both('BeaconRevealsRevealRole', 'CommandsFunctionRole', 'ExportJobRole', 'KeyRotationRole'));
  });
});

describe('the sweep (S2): deletes the partitions of a game, puts nothing but leases, reads nothing back', () => {
  const sweep = () => role('GameExpirySweepRole');
  const ask = (action: string, resource: string, context: Record<string, string | string[]>) =>
    decide({ principal: sweep().arn, policies: sweep().policies, action, resource, context });

  it("deletes each item of a game returning nothing, and re-arms a game's lease", async () => {
    const commits = table('Commits');
    for (const pk of ['g-1', 'g-1#viewers', 'g-1#tokens', 'g-1#snapshot', 'g-1#secrets', 'g-1#seed', 'reveal#pending', 'lease#g-1']) {
      expect(await ask('dynamodb:DeleteItem', commits, { 'dynamodb:LeadingKeys': [pk], 'dynamodb:ReturnValues': 'NONE' }), pk).toBe('Allowed');
    }
    expect(await ask('dynamodb:PutItem', commits, { 'dynamodb:LeadingKeys': ['lease#g-1'] })).toBe('Allowed');
    expect(await ask('dynamodb:DeleteItem', table('Seeds'), { 'dynamodb:LeadingKeys': ['g-1#seed'], 'dynamodb:ReturnValues': 'NONE' })).toBe('Allowed');
  });

  it('cannot put an item other than a lease, nor write items in a batch', async () => {
    const commits = table('Commits');
    for (const pk of ['g-1', 'g-1#secrets', 'g-1#tokens', 'arbiter#keyring', 'idempotency#abc']) {
      expect(await ask('dynamodb:PutItem', commits, { 'dynamodb:LeadingKeys': [pk] }), pk).not.toBe('Allowed');
      expect(await ask('dynamodb:UpdateItem', commits, { 'dynamodb:LeadingKeys': [pk] }), pk).not.toBe('Allowed');
    }
    expect(await ask('dynamodb:BatchWriteItem', commits, { 'dynamodb:LeadingKeys': ['g-1'] })).not.toBe('Allowed');
    expect(await ask('dynamodb:PutItem', table('Seeds'), { 'dynamodb:LeadingKeys': ['g-1#seed'] })).not.toBe('Allowed');
  });

  it("cannot delete the key ring, a tournament, an idempotency record or anything that is not a game's", async () => {
    const commits = table('Commits');
    for (const pk of ['arbiter#keyring', 't-1#tournament', 't-1#games', 'tournament-token#abc', 'idempotency#abc', 'subscription#s-1', 'quota#x', 'public-stats#dice']) {
      expect(await ask('dynamodb:DeleteItem', commits, { 'dynamodb:LeadingKeys': [pk], 'dynamodb:ReturnValues': 'NONE' }), pk).not.toBe('Allowed');
    }
  });

  it('cannot have a deleted item handed back (ReturnValues ALL_OLD), a seed or the secrets least of all', async () => {
    for (const [resource, pk] of [
      [table('Commits'), 'g-1'],
      [table('Commits'), 'g-1#secrets'],
      [table('Commits'), 'g-1#seed'],
      [table('Seeds'), 'g-1#seed'],
    ]) {
      expect(await ask('dynamodb:DeleteItem', resource, { 'dynamodb:LeadingKeys': [pk], 'dynamodb:ReturnValues': 'ALL_OLD' }), pk).not.toBe('Allowed');
    }
  });
});

describe('the export function: reads games, tournaments and the key ring, and no token hash, link, idempotency record or subscription', () => {
  it('may GetItem and Query the items an export is made of, and neither on the items that hold secrets of other kinds', async () => {
    const exportJob = role('ExportJobRole');
    const commits = table('Commits');
    const ask = (action: string, pk: string) => decide({ principal: exportJob.arn, policies: exportJob.policies, action, resource: commits, context: { 'dynamodb:LeadingKeys': [pk] } });
    for (const pk of ['g-1', 't-1#tournament', 't-1#games', 'arbiter#keyring', 'g-1#secrets']) {
      expect(await ask('dynamodb:GetItem', pk), pk).toBe('Allowed');
    }
    for (const pk of ['g-1#seed', 'g-1#tokens', 'g-1#viewers', 'tournament-token#abc', 'idempotency#abc', 'subscription#s-1', 'subscriptions#games', 'quota#x']) {
      for (const action of ['dynamodb:GetItem', 'dynamodb:Query']) expect(await ask(action, pk), `${action} ${pk}`).not.toBe('Allowed');
    }
  });
});

describe('the seeds (S4): a table of their own that only the functions that roll can reach', () => {
  const READS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:PartiQLSelect'];

  it('is read by the commands and reveal functions only (GetItem), and written by the commands function only', async () => {
    const seeds = table('Seeds');
    // AWS Backup's role is simulated with every permission (AWS's policy is AWS's, see templatePolicies.ts): only the
    // AWS Backup service can assume it, and the items it copies into backups hold each seed sealed by the seed key,
    // which its key policy refuses to open for that role (the tests above).
    const backup = [...roles.entries()].filter(([, r]) => r.managed.length > 0);
    expect(backup.map(([id]) => named(id))).toEqual(['BackupRole']);
    expect(template.Resources[backup[0][0]].Properties.AssumeRolePolicyDocument.Statement).toEqual([{ Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'backup.amazonaws.com' } }]);
    for (const action of READS) {
      const context: Record<string, string[]> = action === 'dynamodb:Scan' || action === 'dynamodb:PartiQLSelect' ? {} : { 'dynamodb:LeadingKeys': ['g-1#seed'] };
      const stackRoles = everyone().filter((p) => p.role && !p.name.includes('*:*') && p.role !== 'BackupRole');
      expect(await allowedTo(action, seeds, undefined, context, stackRoles), action).toEqual(action === 'dynamodb:GetItem' ? ['BeaconRevealsRevealRole', 'CommandsFunctionRole'] : []);
    }
    const stackRoles = everyone().filter((p) => p.role && !p.name.includes('*:*') && p.role !== 'BackupRole');
    expect(await allowedTo('dynamodb:PutItem', seeds, undefined, { 'dynamodb:LeadingKeys': ['g-1#seed'] }, stackRoles)).toEqual(['CommandsFunctionRole']);
  });

  it('stays out of reach of the reads and push functions even if someone allows them Scan and PartiQL on the game table', async () => {
    const commits = table('Commits');
    const seeds = table('Seeds');
    const widened: PolicyDocument = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: ['dynamodb:Scan', 'dynamodb:PartiQLSelect', 'dynamodb:GetItem'], Resource: commits }] };
    for (const name of ['ReadsFunctionRole', 'PushSocketRole', 'PushStreamRole', 'PushFanOutRole', 'NotificationsDeliveryRole', 'GameExpirySweepRole']) {
      const r = role(name);
      const policies = [...r.policies, widened];
      // The widening takes: a Scan of the game table is now allowed (the push stream function, which reads no
      // game item at all since the fan-out, infra/push.ts, stays denied by its own policy) ...
      expect(await decide({ principal: r.arn, policies, action: 'dynamodb:Scan', resource: commits }), name).toBe(name === 'PushStreamRole' ? 'ExplicitlyDenied' : 'Allowed');
      // ... and reaches no seed, which is in another table.
      for (const action of READS) {
        const context: Record<string, string[]> = action === 'dynamodb:Scan' || action === 'dynamodb:PartiQLSelect' ? {} : { 'dynamodb:LeadingKeys': ['g-1#seed'] };
        expect(await decide({ principal: r.arn, policies, action, resource: seeds, context }), `${name} ${action}`).not.toBe('Allowed');
      }
    }
  });
});
