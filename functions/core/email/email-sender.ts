import { config } from '../../shared/config';
import { createOutboxEmailSender } from './outbox-email-sender';
import { createSesEmailSender } from './ses-email-sender';

/**
 * The e-mail port (STYLE 5): services depend on `EmailSender`; the adapters beside it deliver through
 * Amazon SES (AWS) or write each message into a local outbox folder (the local cloud and tests).
 * Which one is configuration: EMAIL_OUTBOX_DIR set -> outbox, else SES from EMAIL_FROM.
 */
export interface EmailMessage {
  /** One recipient address. */
  to: string;
  subject: string;
  /** Plain-text body. */
  text: string;
}

export interface EmailSender {
  send(message: EmailMessage): Promise<void>;
}

let current: EmailSender | undefined;

const fromConfig = (): EmailSender => {
  const { EMAIL_OUTBOX_DIR, EMAIL_FROM, AWS_REGION } = config();
  if (EMAIL_OUTBOX_DIR)
    return createOutboxEmailSender({ dir: EMAIL_OUTBOX_DIR, from: EMAIL_FROM ?? 'no-reply@localhost' });
  if (!EMAIL_FROM) throw new Error('Invalid configuration: EMAIL_FROM is required to send e-mail through SES');
  return createSesEmailSender({ from: EMAIL_FROM, region: AWS_REGION });
};

/** The process's sender, chosen once from the configuration. */
export const emailSender = (): EmailSender => {
  current ??= fromConfig();
  return current;
};

/** Tests swap the sender (or pass undefined to choose again from the configuration). */
export const setEmailSenderForTests = (sender: EmailSender | undefined): void => {
  current = sender;
};
