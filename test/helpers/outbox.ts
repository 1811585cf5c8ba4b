import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { OutboxMessage } from '../../functions/core/email/outbox-email-sender';

/**
 * The e-mails the functions "sent" during the run: the local cloud writes each one as a JSON file into its
 * outbox folder (EMAIL_OUTBOX_DIR; global-setup.ts provides the path). Oldest first.
 */
export const outboxMessages = async (to?: string): Promise<OutboxMessage[]> => {
  const dir = inject('outboxDir');
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []; // nothing sent yet
    throw err;
  }
  const messages = await Promise.all(
    names.map(async (n) => JSON.parse(await readFile(join(dir, n), 'utf8')) as OutboxMessage),
  );
  return to === undefined ? messages : messages.filter((m) => m.to === to.toLowerCase());
};

/** The verification code of the newest password-reset e-mail to `to`. */
export const latestResetCode = async (to: string): Promise<string> => {
  const mail = (await outboxMessages(to)).at(-1);
  const code = /código de verificação é: (\d{6})/.exec(mail?.text ?? '')?.[1];
  if (!code) throw new Error(`no password-reset e-mail to ${to} in the outbox`);
  return code;
};
