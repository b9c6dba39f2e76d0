import { App, CfnResource, Validations, type CfnElement } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ROUTES } from '../../functions/http/routes';
import { LAMBDA_ENTRIES } from '../../infra/bundling';
import { ArbiterStack } from '../../infra/arbiterStack';
import { EXPIRY_ENTRIES } from '../../infra/gameExpiry';
import { BEACON_ENTRIES } from '../../infra/beaconReveals';
import { NOTIFY_ENTRIES } from '../../infra/notifications';
import { EXPORT_JOB_ENTRIES } from '../../infra/exportJob';
import { PUSH_ENTRIES, PUSH_STAGE } from '../../infra/push';

/** The synthesized stack (its aspects applied, so every alarm exists) and cdk-nag's AwsSolutions findings on it. */
function check() {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new ArbiterStack(app, 'Arbiter');
  app.synth();
  const report = new AwsSolutionsChecks(app).validateScope(stack);
  const findings = report.violations.flatMap((v) => v.violatingResources.map((r) => ({ rule: v.ruleName, path: r.constructPath ?? '', description: v.description })));
  return { stack, report, findings };
}

/** Every acknowledgement in the tree: the construct it is on, the rule (with its finding) and the reason. */
/** The acknowledgements of cdk-nag's findings (CDK acknowledges some of its own template checks itself, e.g. an access-log bucket's ACL). */
function acknowledgements(root: IConstruct) {
  return root.node
    .findAll()
    .flatMap((c) =>
      c.node.metadata
        .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((m) => Object.entries(m.data as Record<string, string>).map(([rule, reason]) => ({ path: c.node.path, rule: rule.replace(/^Annotation::/, ''), reason, construct: c }))),
    )
    .filter((ack) => ack.rule.startsWith('AwsSolutions-'));
}

/** cdk-nag's finding on a grant to the push stage's connections, as it renders that ARN. */
const connectionsRule = (stack: ArbiterStack, method: 'POST' | 'DELETE') => {
  const api = stack.getLogicalId(stack.node.findChild('Push').node.findChild('Api').node.defaultChild as CfnElement);
  return `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<${api}>/${PUSH_STAGE}/${method}/@connections/*]`;
};

/** The exports bucket's objects under exports/: their keys are known only when a game is exported. */
const exportsRule = (stack: ArbiterStack) => {
  const bucket = stack.getLogicalId(stack.node.findChild('ExportStorage').node.findChild('Exports').node.defaultChild as CfnElement);
  return `AwsSolutions-IAM5[Resource::<${bucket}.Arn>/exports/*]`;
};

/** AWS Backup's managed policy on the backup role. */
const BACKUP_POLICY_RULE = 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]';

afterEach(() => {
  vi.restoreAllMocks();
});

describe("cdk-nag's AwsSolutions pack", () => {
  it('finds nothing unacknowledged in the stack', () => {
    const { report, findings } = check();
    expect(findings).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('is answered by acknowledgements each with its reason, each for a finding that is really there, none wider than the resource it answers for', () => {
    const { stack } = check();
    const acks = acknowledgements(stack);
    for (const ack of acks) expect(ack.reason.length, `${ack.rule} on ${ack.path}`).toBeGreaterThan(40);
    expect([...new Set(acks.map((a) => a.rule))].sort()).toEqual(
      [
        'AwsSolutions-APIG4',
        'AwsSolutions-DDB3',
        'AwsSolutions-IAM5[Resource::*]',
        'AwsSolutions-SQS3',
        connectionsRule(stack, 'POST'),
        connectionsRule(stack, 'DELETE'),
        exportsRule(stack),
        BACKUP_POLICY_RULE,
      ].sort(),
    );
    // The Secrets Manager secrets are gone, and their acknowledgements with them.
    expect(acks.filter((a) => a.rule.includes('SMG') || /secret/i.test(a.path))).toEqual([]);

    // The same stack with every acknowledgement ignored: what each one answers, and that nothing else is found.
    vi.spyOn(Validations.prototype, 'acknowledge').mockImplementation(() => {});
    const bare = check();
    const within = (path: string, root: string) => path === root || path.startsWith(`${root}/`);
    const answered = (f: { rule: string; path: string }) => acks.some((a) => a.rule === f.rule && within(f.path, a.path));
    expect(bare.findings.filter((f) => !answered(f))).toEqual([]);
    const resources = new Map(bare.stack.node.findAll().filter(CfnResource.isCfnResource).map((r) => [r.node.path, r]));
    for (const ack of acks) {
      const covered = bare.findings.filter((f) => f.rule === ack.rule && within(f.path, ack.path));
      expect(covered.length, `${ack.rule} on ${ack.path} answers a finding`).toBeGreaterThan(0);
      if (CfnResource.isCfnResource(ack.construct)) {
        expect(covered.map((f) => f.path)).toEqual([ack.path]);
        continue;
      }
      // On a higher-level construct: it answers for its own resource of the finding's type, or (APIG4, reported per route) an API's own routes,
      // and every resource of that type inside it has the finding: it hides nothing that is not there.
      const types = [...new Set(covered.map((f) => resources.get(f.path)!.cfnResourceType))];
      expect(types, ack.path).toHaveLength(1);
      const sameType = ack.construct.node.findAll().filter((c): c is CfnResource => CfnResource.isCfnResource(c) && c.cfnResourceType === types[0]);
      if (types[0] === 'AWS::ApiGatewayV2::Route') expect((ack.construct.node.defaultChild as CfnResource).cfnResourceType, ack.path).toBe('AWS::ApiGatewayV2::Api');
      else expect(sameType.map((c) => c.node.path), ack.path).toEqual([`${ack.path}/Resource`]);
      expect(sameType.map((c) => c.node.path).sort(), ack.path).toEqual(covered.map((f) => f.path).sort());
    }

    // What the acknowledgements stand for: the API routes are authorized by the functions (HTTP) or by the subscribe message (WebSocket);
    // X-Ray and the stream's ListStreams name no resource; a push function posts to whichever connection of its own stage;
    // the connections table holds nothing a restore could give back.
    const counts = Object.fromEntries([...new Set(bare.findings.map((f) => f.rule))].map((rule) => [rule, bare.findings.filter((f) => f.rule === rule).length]));
    const functions = Object.keys(LAMBDA_ENTRIES).length + Object.keys(PUSH_ENTRIES).length + Object.keys(EXPIRY_ENTRIES).length + Object.keys(BEACON_ENTRIES).length + Object.keys(NOTIFY_ENTRIES).length + Object.keys(EXPORT_JOB_ENTRIES).length;
    expect(counts).toEqual({
      'AwsSolutions-APIG4': ROUTES.length + 3,
      'AwsSolutions-IAM5[Resource::*]': functions,
      'AwsSolutions-DDB3': 1,
      // The sweep's dead-letter queue: a Lambda on-failure destination, which cdk-nag does not count as a dead-letter queue.
      'AwsSolutions-SQS3': 1,
      [connectionsRule(stack, 'POST')]: 2,
      [connectionsRule(stack, 'DELETE')]: 1,
      // reads (a game's export), commands (a tournament's job record and link) and the export function (the tournament's file).
      [exportsRule(stack)]: 3,
      // AWS Backup's role keeps AWS's own policy for backups (infra/operations.ts).
      [BACKUP_POLICY_RULE]: 1,
    });
    // One acknowledgement per HTTP route, per role policy and per finding of the push construct (its API's routes at once).
    // The push construct: its API, its three role policies (socket, stream, fan-out), three @connections grants (socket POST, fan-out POST and DELETE), its connections table.
    // (and one each for the reads and commands roles' grants on the exports bucket's exports/ prefix, one for the sweep function's role, one for the reveal function's, one for the notification delivery function's,
    // one for the sweep's dead-letter queue, two for the export function's: its role policy, and its grant on exports/).
    // (and one for AWS Backup's role.)
    expect(acks).toHaveLength(ROUTES.length + Object.keys(LAMBDA_ENTRIES).length + 8 + 2 + 1 + 1 + 1 + 1 + 1 + 2);
  });
});
