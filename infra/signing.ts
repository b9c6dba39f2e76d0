import { CfnOutput, Fn, Lazy, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { AccountRootPrincipal, AnyPrincipal, Effect, PolicyDocument, PolicyStatement, Role, type IRole } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage, type CfnKey } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { SEED_KEY_SUFFIX } from '../functions/store/dynamoStore';
import { KEY_RING_KEY } from '../functions/store/keyRingStore';
import { settingName } from '../functions/config/settingNames';

/**
 * What the account keeps on Arbiter's keys through its key policies: administration (describe,
 * tag, disable, schedule deletion, change the policy), never a cryptographic use. `kms:Create*`
 * is left out on purpose: a grant (CreateGrant) is a use handed to someone else.
 */
export const KEY_ADMINISTRATION = [
  'kms:CreateAlias',
  'kms:Describe*',
  'kms:Enable*',
  'kms:List*',
  'kms:Put*',
  'kms:Update*',
  'kms:Revoke*',
  'kms:Disable*',
  'kms:Get*',
  'kms:Delete*',
  'kms:TagResource',
  'kms:UntagResource',
  'kms:ScheduleKeyDeletion',
  'kms:CancelKeyDeletion',
] as const;

/** The uses of each key that some role of the stack needs; every other cryptographic use is denied to everyone. */
export const KEY_USES = {
  signing: ['kms:Sign'],
  seed: ['kms:Encrypt', 'kms:Decrypt'],
  token: ['kms:GenerateMac'],
} as const;
/** Uses nobody needs: denied to every principal, the stack's own roles included. */
const UNUSED = {
  signing: ['kms:Verify', 'kms:CreateGrant'],
  seed: ['kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:CreateGrant'],
  token: ['kms:VerifyMac', 'kms:CreateGrant'],
} as const;
export type KeyKind = keyof typeof KEY_USES;
type KeyUseAction = (typeof KEY_USES)[KeyKind][number];

/**
 * Who may use which key, for the key policies: each (key, action) names its roles, and the
 * key policy allows that action to those roles only and denies it to every other principal
 * (`aws:PrincipalArn`), whatever IAM policy or grant it holds. The lists are read at
 * synthesis, so a construct added later (the notification delivery function) can be named.
 */
export class KeyUsers {
  private readonly roles = new Map<string, IRole[]>();

  permit(kind: KeyKind, action: KeyUseAction, role: IRole): void {
    if (!(KEY_USES[kind] as readonly string[]).includes(action)) throw new Error(`${action} is not a use of the ${kind} key`);
    const list = this.roles.get(`${kind} ${action}`) ?? [];
    if (!list.includes(role)) list.push(role);
    this.roles.set(`${kind} ${action}`, list);
  }

  /** The roles named for a use, as ARNs (tokens until synthesis). */
  arnsOf(kind: KeyKind, action: KeyUseAction): string[] {
    return Lazy.list({
      produce: () => {
        const roles = this.roles.get(`${kind} ${action}`) ?? [];
        // An empty list would make the key policy deny the use to everyone (ArnNotEquals nothing), Arbiter included: refuse to synthesize it.
        if (roles.length === 0) throw new Error(`No role is named for ${action} on the ${kind} key: its key policy would deny that use to every principal, Arbiter's functions included (KeyUsers.permit).`);
        return roles.map((role) => role.roleArn);
      },
    });
  }

  /** Every role named for any use of any key. */
  allArns(): string[] {
    return Lazy.list({ produce: () => [...new Set([...this.roles.values()].flat())].map((role) => role.roleArn) });
  }

  /** The key policy of one key: administration for the account, each use for its named roles only, the unused uses for nobody. */
  policyFor(kind: KeyKind, options: { retired?: boolean } = {}): PolicyDocument {
    const root = new AccountRootPrincipal();
    const statements = [new PolicyStatement({ sid: 'AccountAdministersTheKey', principals: [root], actions: [...KEY_ADMINISTRATION], resources: ['*'] })];
    const unused: string[] = [...UNUSED[kind]];
    for (const action of KEY_USES[kind]) {
      // A retired signing key signs for nobody, the rotation role included (trust.md §6).
      if (options.retired) {
        unused.push(action);
        continue;
      }
      const arns = this.arnsOf(kind, action);
      const id = action.replace('kms:', '');
      // The account delegates to IAM only for these roles: each still needs the action in its own policy.
      statements.push(new PolicyStatement({ sid: `${id}ByArbiterRoles`, principals: [root], actions: [action], resources: ['*'], conditions: { ArnEquals: { 'aws:PrincipalArn': arns } } }));
      statements.push(new PolicyStatement({ sid: `${id}ByNobodyElse`, effect: Effect.DENY, principals: [new AnyPrincipal()], actions: [action], resources: ['*'], conditions: { ArnNotEquals: { 'aws:PrincipalArn': arns } } }));
    }
    statements.push(new PolicyStatement({ sid: 'UnusedByAnyone', effect: Effect.DENY, principals: [new AnyPrincipal()], actions: unused, resources: ['*'] }));
    return new PolicyDocument({ statements });
  }
}

/** A key whose key policy is exactly `policy` (CDK adds none of its own, whichever feature flags the app sets). */
function keyWithPolicy(scope: Construct, id: string, props: ConstructorParameters<typeof Key>[2] & object, policy: PolicyDocument): Key {
  const key = new Key(scope, id, props);
  (key.node.defaultChild as CfnKey).keyPolicy = policy;
  return key;
}

export interface SigningProps {
  table: ITable;
  /** The function that signs commits and heads, and rolls: kms:Sign, and the seed key. */
  signer: LambdaFunction;
  /**
   * Functions on the commands side that sign too, but create nothing (the reveal function of
   * beacon games): kms:Sign as the signer, seeds opened (Decrypt) but never sealed, no token key.
   */
  revealers?: LambdaFunction[];
  /** Functions that publish the public keys (GET /keys, exports): kms:GetPublicKey, and never a seed item. */
  publishers: LambdaFunction[];
  /** How many signing keys the stack holds: one more before each rotation (npm run rotate-key:aws). */
  generations?: number;
  /**
   * How many of them, from the first, a rotation has retired: the signing function loses
   * kms:Sign on those (an explicit deny), so a retired key signs nothing (trust.md §6).
   */
  retired?: number;
}

/**
 * The keys that never leave KMS: Ed25519 signing keys (the first signs until a rotation
 * names another, through the key ring item), and a symmetric key sealing server seeds.
 * Only the signing function may sign or open a seed; the others are denied every seed item
 * of the table by its partition key.
 */
export function addSigning(scope: Construct, props: SigningProps): { signingKeys: Key[]; seedKey: Key; tokenKey: Key; keyUsers: KeyUsers; rotationRole: Role } {
  const keyUsers = new KeyUsers();
  const generations = props.generations ?? 1;
  if (!Number.isInteger(generations) || generations < 1 || generations > 20) throw new Error('signingKeys is a whole number from 1 to 20');
  const retired = props.retired ?? 0;
  if (!Number.isInteger(retired) || retired < 0 || retired >= generations) throw new Error(`retiredSigningKeys is a whole number below signingKeys (${generations}): the last key is never retired`);
  const signingKeys = Array.from({ length: generations }, (_, i) =>
    keyWithPolicy(
      scope,
      `SigningKey${i + 1}`,
      {
        description: `Arbiter: Ed25519 key ${i + 1} that signs commits and heads (fairness-v1, trust.md)`,
        keySpec: KeySpec.ECC_NIST_EDWARDS25519,
        keyUsage: KeyUsage.SIGN_VERIFY,
        removalPolicy: RemovalPolicy.RETAIN,
      },
      keyUsers.policyFor('signing', { retired: i < retired }),
    ),
  );
  const seedKey = keyWithPolicy(
    scope,
    'SeedKey',
    {
      description: 'Arbiter: seals server seeds at rest (KMS Encrypt with the game id as encryption context)',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    },
    keyUsers.policyFor('seed'),
  );
  const tokenKey = keyWithPolicy(
    scope,
    'TokenKey',
    {
      description: 'Arbiter: derives the tokens of a game created with an Idempotency-Key (GenerateMac), so a retry gets them again',
      keySpec: KeySpec.HMAC_256,
      keyUsage: KeyUsage.GENERATE_VERIFY_MAC,
      removalPolicy: RemovalPolicy.RETAIN,
    },
    keyUsers.policyFor('token'),
  );
  const keyArns = signingKeys.map((key) => key.keyArn);

  const retiredArns = keyArns.slice(0, retired);
  props.signer.addToRolePolicy(new PolicyStatement({ actions: ['kms:Sign', 'kms:GetPublicKey'], resources: keyArns.slice(retired) }));
  if (retiredArns.length > 0) {
    props.signer.addToRolePolicy(new PolicyStatement({ actions: ['kms:GetPublicKey'], resources: retiredArns }));
    props.signer.addToRolePolicy(new PolicyStatement({ effect: Effect.DENY, actions: ['kms:Sign'], resources: retiredArns }));
  }
  props.signer.addToRolePolicy(
    new PolicyStatement({
      actions: ['kms:Encrypt', 'kms:Decrypt'],
      resources: [seedKey.keyArn],
      // ForAllValues alone also holds for a request with no encryption context: Null requires one, so every call names its game.
      conditions: { 'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['gameId'] }, Null: { 'kms:EncryptionContextKeys': 'false' } },
    }),
  );
  props.signer.addToRolePolicy(new PolicyStatement({ actions: ['kms:GenerateMac'], resources: [tokenKey.keyArn] }));
  for (const action of [...KEY_USES.signing, ...KEY_USES.seed]) keyUsers.permit(action === 'kms:Sign' ? 'signing' : 'seed', action, props.signer.role!);
  keyUsers.permit('token', 'kms:GenerateMac', props.signer.role!);
  props.signer.addEnvironment(settingName('tokenKeyId'), tokenKey.keyArn);
  props.signer.addEnvironment(settingName('signingKeyId'), keyArns[0]);
  props.signer.addEnvironment(settingName('signs'), 'true');
  props.signer.addEnvironment(settingName('seedKeyId'), seedKey.keyArn);

  for (const revealer of props.revealers ?? []) {
    revealer.addToRolePolicy(new PolicyStatement({ actions: ['kms:Sign', 'kms:GetPublicKey'], resources: keyArns.slice(retired) }));
    if (retiredArns.length > 0) {
      revealer.addToRolePolicy(new PolicyStatement({ actions: ['kms:GetPublicKey'], resources: retiredArns }));
      revealer.addToRolePolicy(new PolicyStatement({ effect: Effect.DENY, actions: ['kms:Sign'], resources: retiredArns }));
    }
    revealer.addToRolePolicy(
      new PolicyStatement({
        actions: ['kms:Decrypt'],
        resources: [seedKey.keyArn],
        conditions: { 'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['gameId'] }, Null: { 'kms:EncryptionContextKeys': 'false' } },
      }),
    );
    keyUsers.permit('signing', 'kms:Sign', revealer.role!);
    keyUsers.permit('seed', 'kms:Decrypt', revealer.role!);
    revealer.addEnvironment(settingName('signingKeyId'), keyArns[0]);
    revealer.addEnvironment(settingName('signs'), 'true');
    revealer.addEnvironment(settingName('seedKeyId'), seedKey.keyArn);
  }

  for (const publisher of props.publishers) {
    publisher.addToRolePolicy(new PolicyStatement({ actions: ['kms:GetPublicKey'], resources: keyArns }));
    publisher.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.DENY,
        actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [`*${SEED_KEY_SUFFIX}`] } },
      }),
    );
    publisher.addEnvironment(settingName('signingKeyId'), keyArns[0]);
  }

  // `npm run rotate-key:aws` runs as this role: it signs the rotation statement with the current key and writes the key ring, nothing else.
  const stack = Stack.of(scope);
  const rotationRole = new Role(scope, 'KeyRotationRole', {
    assumedBy: new AccountRootPrincipal(),
    description: 'Arbiter: npm run rotate-key:aws (signs the key rotation statement with the current key, writes the key ring item)',
  });
  rotationRole.addToPolicy(new PolicyStatement({ actions: ['kms:Sign'], resources: keyArns.slice(retired) }));
  rotationRole.addToPolicy(new PolicyStatement({ actions: ['kms:GetPublicKey'], resources: keyArns }));
  rotationRole.addToPolicy(
    new PolicyStatement({
      actions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
      resources: [props.table.tableArn],
      conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [KEY_RING_KEY] } },
    }),
  );
  keyUsers.permit('signing', 'kms:Sign', rotationRole);
  new CfnOutput(scope, 'KeyRotationRoleArn', {
    value: rotationRole.roleArn,
    description: `Assume it for npm run rotate-key:aws (aws sts assume-role, or a profile with role_arn): the only principal outside the functions that may sign, in account ${stack.account}`,
  });

  new CfnOutput(scope, 'SigningKeyArns', {
    value: Fn.join(',', keyArns),
    description: 'The signing keys, first to last; npm run rotate-key:aws -- --table <TableName> --keys <this list> --to <the next>',
  });
  return { signingKeys, seedKey, tokenKey, keyUsers, rotationRole };
}
