import type { SubscriptionKind } from '../ports/subscriptionStore';
import type { Notice } from './notice';
import type { Reminder } from './reminder';

/** Where one subscription is told, opened from its sealed target for one delivery only. */
export interface ChannelTarget {
  subscriptionId: string;
  kind: SubscriptionKind;
  url?: string;
  address?: string;
  /** `whsec_…`: the webhook kind's signing secret. */
  secret?: string;
  unsubscribeUrl?: string;
  confirmUrl?: string;
}

export interface DeliveryAttempt {
  /** Stable per subscription and commit (or digest): `msg_<subscriptionId>_<firstSeq>_<lastSeq>`; a receiver drops a second one. */
  messageId: string;
  /** Unix seconds. */
  timestamp: number;
  /** 1 for the first try. */
  number: number;
}

/** A delivery that failed; `reason` names no secret and no full URL (it is shown to the organizer). */
export class DeliveryError extends Error {
  constructor(
    readonly retryable: boolean,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'DeliveryError';
  }
}

/** One way of telling: webhook, Discord, Slack (functions/notify/), e-mail (functions/notify/email/). */
export interface Channel {
  deliver(target: ChannelTarget, notices: readonly Notice[], attempt: DeliveryAttempt): Promise<void>;
  /** Tells that a side is overdue; a channel without it sends no reminders. */
  remind?(target: ChannelTarget, reminder: Reminder, attempt: DeliveryAttempt): Promise<void>;
  /** Whether these notices fit in one delivery; without it any number do. A digest too large goes in parts. */
  fits?(notices: readonly Notice[]): boolean;
}

/** What the subscribe step calls to ask an address to confirm (double opt-in); part D sends the mail. */
export interface ConfirmationSender {
  send(address: string, mail: { gameTitle: string; gameId: string; confirmUrl: string; unsubscribeUrl: string }): Promise<void>;
}

export const messageIdOf = (subscriptionId: string, notices: readonly Notice[]) => `msg_${subscriptionId}_${notices[0]!.seq}_${notices.at(-1)!.seq}`;
