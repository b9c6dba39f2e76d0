import { Duration } from 'aws-cdk-lib';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { Rule } from 'aws-cdk-lib/aws-events';
import { SnsTopic } from 'aws-cdk-lib/aws-events-targets';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import type { KeyUsers } from './signing';

/** The KMS calls that use a key (or hand its use to someone), as CloudTrail names them. */
export const WATCHED_KMS_CALLS = ['Sign', 'Verify', 'Encrypt', 'Decrypt', 'ReEncrypt', 'GenerateDataKey', 'GenerateDataKeyWithoutPlaintext', 'GenerateMac', 'VerifyMac', 'CreateGrant'] as const;

export interface KeyUseWatchProps {
  keys: IKey[];
  users: KeyUsers;
  /** Gets each event as it happens (the stack's alarm topic). */
  topic: Topic;
}

/**
 * Any use of Arbiter's keys by someone other than the roles the key policies name: an
 * EventBridge rule on CloudTrail's record of the KMS call (a management event: the account
 * needs a trail recording management events, docs/deploy.md#keys-and-who-can-use-them), whose
 * events go to the alarm topic; a refused attempt is recorded, and so notified, too. Returns
 * the rule's count of matched events, for an alarm.
 */
export function watchKeyUse(scope: Construct, props: KeyUseWatchProps): { rule: Rule; matched: Metric } {
  const rule = new Rule(scope, 'KeyUseByOthers', {
    description: 'Arbiter: its signing, seed or token key used (or tried) by someone other than its own roles',
    eventPattern: {
      source: ['aws.kms'],
      detailType: ['AWS API Call via CloudTrail'],
      detail: {
        eventSource: ['kms.amazonaws.com'],
        eventName: [...WATCHED_KMS_CALLS],
        resources: { ARN: props.keys.map((key) => key.keyArn) },
        // A role's session names the role as its issuer; a user, the root or a service has none.
        $or: [
          { userIdentity: { type: [{ 'anything-but': 'AssumedRole' }] } },
          { userIdentity: { sessionContext: { sessionIssuer: { arn: [{ 'anything-but': props.users.allArns() }] } } } },
        ],
      },
    },
  });
  rule.addTarget(new SnsTopic(props.topic));
  // The target lets EventBridge use the alarm topic's key (the SnsTopic target adds that statement to the key policy).
  const matched = new Metric({ namespace: 'AWS/Events', metricName: 'MatchedEvents', dimensionsMap: { RuleName: rule.ruleName }, statistic: 'Sum', period: Duration.minutes(5) });
  return { rule, matched };
}
