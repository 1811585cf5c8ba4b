import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EmailMessage, EmailSender } from './email-sender';

/**
 * The local outbox: each message becomes one JSON file in `dir` (`.data/outbox/` for `npm start`, a
 * temporary folder in tests), named by time and a sequence so a sorted listing is in sending order. The
 * file is written under a temporary name and renamed, so a reader never sees half a message.
 */
export interface OutboxMessage extends EmailMessage {
  from: string;
  /** ISO time the message was written. */
  sentAt: string;
}

/** Orders messages written within the same millisecond by this process. */
let sequence = 0;

export const createOutboxEmailSender = ({ dir, from }: { dir: string; from: string }): EmailSender => ({
  send: async (message) => {
    await mkdir(dir, { recursive: true });
    const sentAt = new Date().toISOString();
    sequence += 1;
    const name = `${sentAt.replace(/[:.]/g, '-')}-${String(sequence).padStart(6, '0')}-${randomUUID()}.json`;
    const stored: OutboxMessage = { from, to: message.to, subject: message.subject, text: message.text, sentAt };
    const partial = join(dir, `.${name}.partial`);
    await writeFile(partial, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    await rename(partial, join(dir, name));
  },
});
