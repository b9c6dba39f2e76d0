// The edge's web ACL, a CDK app of its own: a CloudFront web ACL exists only in us-east-1,
// whatever the region of the Arbiter stack. Deploy it first, then the Arbiter stack with its
// WebAclArn (docs/deploy.md#limits-per-client):
//   npx cdk deploy --app "node --import tsx infra/edgeApp.ts" --output cdk.out.edge
//   npx cdk deploy -c edgeWebAclArn=<WebAclArn>
import { App } from 'aws-cdk-lib';
import { ArbiterEdgeFirewall } from './edge';

const app = new App();
new ArbiterEdgeFirewall(app, 'ArbiterEdge');
