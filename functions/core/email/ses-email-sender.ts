import type { SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { EmailSender } from './email-sender';

/**
 * Amazon SES (API v2) adapter. The SDK is loaded on the first send and the client created once per
 * process, so the local cloud and tests never load it unless they use this adapter (in Lambda the
 * runtime provides it; D14). Tests pass a `client` to check the request.
 */
export interface SesClientLike {
  send(command: SendEmailCommand): Promise<unknown>;
}

export interface SesEmailSenderOptions {
  /** A verified SES identity (the address, or an address of a verified domain). */
  from: string;
  region?: string;
  /** Default: an SESv2Client for `region`. */
  client?: SesClientLike;
}

export const createSesEmailSender = ({ from, region, client }: SesEmailSenderOptions): EmailSender => {
  let sdk: Promise<typeof import('@aws-sdk/client-sesv2')> | undefined;
  let ses = client;
  return {
    send: async (message) => {
      const { SESv2Client, SendEmailCommand } = await (sdk ??= import('@aws-sdk/client-sesv2'));
      ses ??= new SESv2Client(region ? { region } : {});
      await ses.send(
        new SendEmailCommand({
          FromEmailAddress: from,
          Destination: { ToAddresses: [message.to] },
          Content: {
            Simple: {
              Subject: { Data: message.subject, Charset: 'UTF-8' },
              Body: { Text: { Data: message.text, Charset: 'UTF-8' } },
            },
          },
        }),
      );
    },
  };
};
