/** One mail as the e-mail channel hands it to a transport (SMTP here, SES on AWS). */
export interface OutgoingMail {
  /** One plain address (name@domain): the only recipient, also the envelope's. */
  to: string;
  subject: string;
  text: string;
  /** The whole Message-ID, angle brackets included; the transport makes one up when absent. */
  messageId?: string;
  /** Extra headers, by names this module chose; their values hold no player text but as one clean line. */
  headers: Readonly<Record<string, string>>;
}

export interface MailTransport {
  /** The From address, as the settings give it (ARBITER_SMTP_FROM). */
  readonly from: string;
  /** Sends one mail; a failure throws a DeliveryError (channel.ts). */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}
