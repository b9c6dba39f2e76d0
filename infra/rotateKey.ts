// `npm run rotate-key:aws -- --table <TableName> --keys <SigningKeyArns> --to <new key ARN> [--context <cdk.context.json>]`:
// rotates the deployed stack's signing key to another KMS key the stack created (deploy with
// `-c signingKeys=<n+1>` first). Run it as the stack's KeyRotationRole (output KeyRotationRoleArn):
// the key policies let no one else outside the functions sign (infra/signing.ts). That role has
// kms:GetPublicKey on the signing keys, kms:Sign on the current ones, and GetItem/PutItem on the key ring item.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { parseArgs } from 'node:util';
import { rotateKmsKey } from '../functions/application/rotateKmsKey';
import { rotationReport } from '../functions/application/rotationReport';
import { KeyRingStore } from '../functions/store/keyRingStore';
import { CURRENT_SIGNING_KEY_CONTEXT, recordCurrentSigningKey, rotationTarget } from './signingKeyGuard';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
let values: { table?: string; keys?: string; initial?: string; to?: string; context?: string };
try {
  ({ values } = parseArgs({ options: { table: { type: 'string' }, keys: { type: 'string' }, initial: { type: 'string' }, to: { type: 'string' }, context: { type: 'string' } } }));
} catch (error) {
  values = {};
  console.error((error as Error).message);
}
if (!values.table || !(values.keys || values.initial) || !values.to) {
  console.error('usage: npm run rotate-key:aws -- --table <output TableName> --keys <output SigningKeyArns, all of it> --to <the new key ARN, from SigningKeyArns>');
  process.exit(2);
}
try {
  const target = rotationTarget({ keys: values.keys, initial: values.initial, to: values.to });
  const rotated = await rotateKmsKey(new KMSClient({}), new KeyRingStore(new DynamoDBClient({}), values.table), {
    initialKeyId: target.initial,
    to: values.to,
    at: new Date().toISOString(),
  });
  for (const line of rotationReport(rotated, 'Every function signs with the new key within a minute (each reads the key ring again at most once a minute).')) console.log(line);
  // Every later deploy must keep the grant of the key --to names, by its position in the stack (infra/signingKeyGuard.ts).
  // --context: the CDK app's context file when it is not ./cdk.context.json.
  const contextFile = values.context ?? 'cdk.context.json';
  if (target.generation !== undefined) {
    recordCurrentSigningKey(target.generation, contextFile);
    console.log(`Recorded in ${contextFile}: ${CURRENT_SIGNING_KEY_CONTEXT} = ${target.generation}. Commit it: a deploy with fewer keys is refused from now on.`);
  } else {
    console.error(`Not recorded in ${contextFile} (no --keys): set ${CURRENT_SIGNING_KEY_CONTEXT} there to the position of the new key in SigningKeyArns (1 for the first) and commit it, or a later deploy with fewer keys would take its grant away.`);
  }
} catch (error) {
  console.error(`Arbiter could not rotate its key: ${(error as Error).message}`);
  process.exitCode = 1;
}
