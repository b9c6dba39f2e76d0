// `npm run rotate-key:aws -- <signing secret ARN>`: rotates the deployed stack's signing key.
// Needs AWS credentials allowed secretsmanager:GetSecretValue and PutSecretValue on the secret.
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { rotationReport } from '../functions/application/rotationReport';
import { rotateSecretKey } from '../functions/lambda/rotateSecretKey';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const secretId = process.argv[2] ?? process.env.SIGNING_KEY_SECRET_ARN;
if (!secretId) {
  console.error('usage: npm run rotate-key:aws -- <the ARN of the stack\'s SigningKeySecret (output SigningKeySecretArn)>');
  process.exit(2);
}
try {
  const rotated = await rotateSecretKey(new SecretsManagerClient({}), secretId, new Date().toISOString());
  const howToSwitch = "Functions started from now on sign with the new key; redeploy (npx cdk deploy) to switch the warm ones at once.";
  for (const line of rotationReport(rotated, howToSwitch)) console.log(line);
} catch (error) {
  console.error(`Arbiter could not rotate its key: ${(error as Error).message}`);
  process.exitCode = 1;
}
