// The CDK app (cdk.json): `npm run synth` offline, `npx cdk deploy` with credentials.
import { App } from 'aws-cdk-lib';
import { ArbiterStack } from './arbiterStack';

const app = new App();
// `cdk deploy -c corsOrigins=<origin>,<origin>` limits CORS to those origins (default: any).
const corsOrigins = String(app.node.tryGetContext('corsOrigins') ?? '')
  .split(',')
  .map((o) => o.trim())
  .filter(Boolean);
new ArbiterStack(app, 'Arbiter', {
  description: 'Arbiter: verifiable, event-sourced combat resolution (Lambda, DynamoDB, HTTP API)',
  corsOrigins,
});
