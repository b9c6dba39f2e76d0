import { App } from 'aws-cdk-lib';
import { Template as CdkTemplate } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ArbiterStack } from '../../infra/arbiterStack';
import { ACCOUNT, keysOf, REGION, resolver, rolesOf, type Template } from './templatePolicies';

/**
 * EventBridge's matching, for the parts of the pattern language the rule uses: lists of
 * values, `anything-but` (the field must be there), nested objects, arrays in the event
 * (any element), and `$or`.
 */
function matches(pattern: Record<string, unknown>, event: unknown): boolean {
  return Object.entries(pattern).every(([field, expected]) => {
    if (field === '$or') return (expected as Record<string, unknown>[]).some((branch) => matches(branch, event));
    const value = (event as Record<string, unknown> | undefined)?.[field];
    const values = Array.isArray(value) ? value : [value];
    if (Array.isArray(expected)) {
      return values.some((v) =>
        expected.some((e) => {
          if (e !== null && typeof e === 'object' && 'anything-but' in e) return v !== undefined && ![(e as Record<string, unknown>)['anything-but']].flat().includes(v);
          return v === e;
        }),
      );
    }
    return values.some((v) => v !== null && typeof v === 'object' && matches(expected as Record<string, unknown>, v));
  });
}

let template: Template;
beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  template = CdkTemplate.fromStack(new ArbiterStack(app, 'Arbiter')).toJSON() as Template;
});

const named = (logicalId: string) => logicalId.replace(/[0-9A-F]{8}$/, '');
const rule = () => {
  const [, resource] = Object.entries(template.Resources).find(([id, r]) => r.Type === 'AWS::Events::Rule' && named(id) === 'KeyUseByOthers')!;
  return resolver(template).resolve(resource.Properties) as { EventPattern: Record<string, unknown>; Targets: { Arn: string }[] };
};
const keyArn = (name: string) => [...keysOf(template).entries()].find(([id]) => named(id) === name)![1].arn;
const roleArn = (name: string) => [...rolesOf(template).entries()].find(([id]) => named(id) === name)![1].arn;

/** CloudTrail's record of a KMS call, as EventBridge delivers it. */
const call = (eventName: string, key: string, userIdentity: Record<string, unknown>) => ({
  source: 'aws.kms',
  'detail-type': 'AWS API Call via CloudTrail',
  detail: { eventSource: 'kms.amazonaws.com', eventName, awsRegion: REGION, userIdentity, resources: [{ accountId: ACCOUNT, type: 'AWS::KMS::Key', ARN: key }] },
});
const session = (role: string) => ({ type: 'AssumedRole', arn: `arn:aws:sts::${ACCOUNT}:assumed-role/${role.split('/').pop()}/session`, sessionContext: { sessionIssuer: { type: 'Role', arn: role } } });

describe('the watch on key use (CloudTrail, docs/deploy.md#keyusebyothers)', () => {
  it('notifies the alarm topic, and an alarm counts what it matched', () => {
    expect(rule().Targets.map((t) => named(t.Arn))).toEqual(['AlarmTopic']);
    const alarms = Object.entries(template.Resources).filter(([id, r]) => r.Type === 'AWS::CloudWatch::Alarm' && id.includes('KeyUseByOthers'));
    expect(alarms).toHaveLength(1);
    expect(alarms[0][1].Properties).toMatchObject({ Namespace: 'AWS/Events', MetricName: 'MatchedEvents', Threshold: 1 });
  });

  it('matches a use of any of the three keys by the root, a user, an administrator role or another function', () => {
    const pattern = rule().EventPattern;
    const others = [
      { type: 'Root', arn: `arn:aws:iam::${ACCOUNT}:root` },
      { type: 'IAMUser', arn: `arn:aws:iam::${ACCOUNT}:user/ci` },
      session(`arn:aws:iam::${ACCOUNT}:role/Administrator`),
      session(roleArn('ReadsFunctionRole')),
      session(roleArn('GameExpirySweepRole')),
    ];
    for (const who of others) {
      expect(matches(pattern, call('Sign', keyArn('SigningKey1'), who)), `${who.arn} Sign`).toBe(true);
      expect(matches(pattern, call('Decrypt', keyArn('SeedKey'), who)), `${who.arn} Decrypt`).toBe(true);
      expect(matches(pattern, call('GenerateMac', keyArn('TokenKey'), who)), `${who.arn} GenerateMac`).toBe(true);
      expect(matches(pattern, call('CreateGrant', keyArn('SeedKey'), who)), `${who.arn} CreateGrant`).toBe(true);
    }
  });

  it("stays quiet for the stack's own roles, for other keys, and for administration", () => {
    const pattern = rule().EventPattern;
    for (const role of ['CommandsFunctionRole', 'BeaconRevealsRevealRole', 'KeyRotationRole', 'NotificationsDeliveryRole']) {
      expect(matches(pattern, call('Sign', keyArn('SigningKey1'), session(roleArn(role)))), role).toBe(false);
      expect(matches(pattern, call('Decrypt', keyArn('SeedKey'), session(roleArn(role)))), role).toBe(false);
    }
    const admin = session(`arn:aws:iam::${ACCOUNT}:role/Administrator`);
    expect(matches(pattern, call('Decrypt', keyArn('AlarmTopicKey'), admin))).toBe(false);
    expect(matches(pattern, call('DescribeKey', keyArn('SeedKey'), admin))).toBe(false);
  });
});
