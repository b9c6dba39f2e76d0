// The CDK app (cdk.json): `npm run synth` offline, `npx cdk deploy` with credentials.
import { App } from 'aws-cdk-lib';
import { ArbiterStack } from './arbiterStack';

const app = new App();
new ArbiterStack(app, 'Arbiter', {
  description: 'Arbiter: verifiable, event-sourced combat resolution (Lambda, DynamoDB, HTTP API)',
});
