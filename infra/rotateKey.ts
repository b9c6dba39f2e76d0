// `npm run rotate-key:aws -- <signing secret ARN>`: rotates the deployed stack's signing key.
// Needs AWS credentials allowed secretsmanager:GetSecretValue and PutSecretValue on the secret.
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { rotateSecretKey } from '../functions/lambda/rotateSecretKey';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const secretId = process.argv[2] ?? process.env.SIGNING_KEY_SECRET_ARN;
if (!secretId) {
  console.error('usage: npm run rotate-key:aws -- <the ARN of the stack\'s SigningKeySecret (output SigningKeySecretArn)>');
  process.exit(2);
}
try {
  const { previous, next, n } = await rotateSecretKey(new SecretsManagerClient({}), secretId, new Date().toISOString());
  console.log(`Signing key rotated (key log statement ${n}, signed by the old key).`);
  console.log(`  retired: ${previous}`);
  console.log(`  current: ${next}`);
  console.log('Functions started from now on sign with the new key; to switch every warm one at once, redeploy (npx cdk deploy)');
  console.log('or update the functions\' configuration. Publish the new fingerprint; pins of the old one keep working.');
} catch (error) {
  console.error(`Arbiter could not rotate its key: ${(error as Error).message}`);
  process.exitCode = 1;
}
