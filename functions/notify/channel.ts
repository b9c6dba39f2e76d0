// Stand-in for part C's functions/notify/channel.ts (the issue 33 team contract): the e-mail
// channel codes against these names; C's file replaces this one at merge.
import type { Notice } from './notice';

export type SubscriptionKind = 'webhook' | 'discord' | 'slack' | 'email';

export interface ChannelTarget {
  subscriptionId: string;
  kind: SubscriptionKind;
  url?: string;
  address?: string;
  secret?: string;
  unsubscribeUrl?: string;
  confirmUrl?: string;
}

export interface DeliveryAttempt {
  /** Stable per subscription and commit or digest: `msg_<subscriptionId>_<firstSeq>_<lastSeq>`. */
  messageId: string;
  /** Unix seconds. */
  timestamp: number;
  number: number;
}

export interface Channel {
  deliver(target: ChannelTarget, notices: readonly Notice[], attempt: DeliveryAttempt): Promise<void>;
}

/** A delivery that failed: tried again later when retryable, else dead-lettered. `reason` names no secret and no full URL. */
export class DeliveryError extends Error {
  readonly retryable: boolean;
  readonly reason: string;
  constructor(reason: string, retryable: boolean) {
    super(reason);
    this.name = 'DeliveryError';
    this.reason = reason;
    this.retryable = retryable;
  }
}

/** What the subscribe step calls to send an e-mail subscription's confirmation link (part D writes it). */
export interface ConfirmationSender {
  send(address: string, mail: { gameTitle: string; gameId: string; confirmUrl: string; unsubscribeUrl: string }): Promise<void>;
}
