import { DeliveryError, type Channel, type ChannelTarget, type DeliveryAttempt } from './channel';
import type { Notice } from './notice';
import type { Reminder } from './reminder';
import { postJson, TARGET_LIMITS, type TargetPolicy } from './targetCheck';
import { webhookSignature } from './webhookSignature';

/** The generic webhook's body: the Standard Webhooks envelope around the notices. */
export function webhookBody(notices: readonly Notice[], attempt: DeliveryAttempt) {
  return { type: 'arbiter.commits', timestamp: new Date(attempt.timestamp * 1000).toISOString(), data: { notices } };
}

/** The generic webhook's body of a reminder (an overdue side). */
export function reminderBody(reminder: Reminder, attempt: DeliveryAttempt) {
  return { type: 'arbiter.reminder', timestamp: new Date(attempt.timestamp * 1000).toISOString(), data: reminder };
}

/** Generic JSON, signed per Standard Webhooks with the subscription's secret. */
export function webhookChannel(policy: TargetPolicy): Channel {
  const post = async (target: ChannelTarget, payload: unknown, attempt: DeliveryAttempt) => {
    if (!target.url || !target.secret) throw new DeliveryError(false, 'the subscription has no URL or secret');
    const body = JSON.stringify(payload);
    await postJson(
      target.url,
      body,
      { 'webhook-id': attempt.messageId, 'webhook-timestamp': String(attempt.timestamp), 'webhook-signature': webhookSignature(target.secret, attempt.messageId, attempt.timestamp, body) },
      policy,
    );
  };
  return {
    deliver: (target, notices, attempt) => post(target, webhookBody(notices, attempt), attempt),
    remind: (target, reminder, attempt) => post(target, reminderBody(reminder, attempt), attempt),
    // The timestamp's text has the same length whatever the time: the body measured is the one sent.
    fits: (notices) => Buffer.byteLength(JSON.stringify(webhookBody(notices, { messageId: '', timestamp: 0, number: 1 }))) <= TARGET_LIMITS.requestBytes,
  };
}
