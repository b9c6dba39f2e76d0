import { DeliveryError, type Channel, type ChannelTarget, type DeliveryAttempt } from './channel';
import type { Notice } from './notice';
import { postJson, type TargetPolicy } from './targetCheck';
import { webhookSignature } from './webhookSignature';

/** The generic webhook's body: the Standard Webhooks envelope around the notices. */
export function webhookBody(notices: readonly Notice[], attempt: DeliveryAttempt) {
  return { type: 'arbiter.commits', timestamp: new Date(attempt.timestamp * 1000).toISOString(), data: { notices } };
}

/** Generic JSON, signed per Standard Webhooks with the subscription's secret. */
export function webhookChannel(policy: TargetPolicy): Channel {
  return {
    async deliver(target: ChannelTarget, notices: readonly Notice[], attempt: DeliveryAttempt) {
      if (!target.url || !target.secret) throw new DeliveryError(false, 'the subscription has no URL or secret');
      const body = JSON.stringify(webhookBody(notices, attempt));
      await postJson(
        target.url,
        body,
        { 'webhook-id': attempt.messageId, 'webhook-timestamp': String(attempt.timestamp), 'webhook-signature': webhookSignature(target.secret, attempt.messageId, attempt.timestamp, body) },
        policy,
      );
    },
  };
}
