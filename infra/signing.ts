import { CfnOutput, Fn, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { SEED_KEY_SUFFIX } from '../functions/store/dynamoStore';
import { settingName } from '../functions/config/settingNames';

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
export function addSigning(scope: Construct, props: SigningProps): { signingKeys: Key[]; seedKey: Key; tokenKey: Key } {
  const generations = props.generations ?? 1;
  if (!Number.isInteger(generations) || generations < 1 || generations > 20) throw new Error('signingKeys is a whole number from 1 to 20');
  const retired = props.retired ?? 0;
  if (!Number.isInteger(retired) || retired < 0 || retired >= generations) throw new Error(`retiredSigningKeys is a whole number below signingKeys (${generations}): the last key is never retired`);
  const signingKeys = Array.from(
    { length: generations },
    (_, i) =>
      new Key(scope, `SigningKey${i + 1}`, {
        description: `Arbiter: Ed25519 key ${i + 1} that signs commits and heads (fairness-v1, trust.md)`,
        keySpec: KeySpec.ECC_NIST_EDWARDS25519,
        keyUsage: KeyUsage.SIGN_VERIFY,
        removalPolicy: RemovalPolicy.RETAIN,
      }),
  );
  const seedKey = new Key(scope, 'SeedKey', {
    description: 'Arbiter: seals server seeds at rest (KMS Encrypt with the game id as encryption context)',
    enableKeyRotation: true,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  const tokenKey = new Key(scope, 'TokenKey', {
    description: 'Arbiter: derives the tokens of a game created with an Idempotency-Key (GenerateMac), so a retry gets them again',
    keySpec: KeySpec.HMAC_256,
    keyUsage: KeyUsage.GENERATE_VERIFY_MAC,
    removalPolicy: RemovalPolicy.RETAIN,
  });
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

  new CfnOutput(scope, 'SigningKeyArns', {
    value: Fn.join(',', keyArns),
    description: 'The signing keys, first to last; npm run rotate-key:aws -- --table <TableName> --initial <the first> --to <the next>',
  });
  return { signingKeys, seedKey, tokenKey };
}
