import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import type { ContactImportSource, ContactImportView } from '../../contracts/contacts';
import {
  failContactImport,
  getContactImport,
  putContactImport,
  queueContactImport,
} from '../../data/contact-import-repository';
import { putMediaObject } from '../../data/media-store';
import { sendQueueMessage } from '../../data/queue-sender';
import { putOutboxItem } from '../../data/wa-outbox-repository';
import type { AuthContext } from '../../shared/auth-context';
import { Conflict } from '../../shared/errors';
import { wakeHolder } from '../pipeline/worker-outbox';
import { announceContactImport, toImportView } from './contact-import-events';
import { connectedWhatsApp } from './directory-check';

/**
 * Import from the phone (core §7 `POST /contacts/import {whatsappId}` and `POST /contacts/import/chats`;
 * decisions D148). Only the worker holding the connection's socket can read the phone, and an address book
 * can hold thousands of people, so:
 * 1. the request makes an import (source `contacts` or `chats`, status `uploaded`) and puts a
 *    `phone-contacts` item in the connection's outbox;
 * 2. the holder lists the people through its session (the simulator's address book, or what WhatsApp told
 *    the Baileys session) and writes them as a CSV file (`name;number`) under the import's key;
 * 3. the import is then queued like a spreadsheet with that mapping, and the `contact-import` job does the
 *    rest: the same normal form, merge by number, chunks resumable after a crash, progress events.
 * A person the phone keeps without a name is imported under the number.
 */
export const phoneContactsRequestSchema = z.object({
  importId: z.string().uuid(),
  source: z.enum(['contacts', 'chats']),
});

export type PhoneContactsRequest = z.infer<typeof phoneContactsRequestSchema>;

const FILE_NAMES: Record<PhoneContactsRequest['source'], string> = {
  contacts: 'whatsapp-contacts.csv',
  chats: 'whatsapp-chats.csv',
};

export const startPhoneImport = async (
  auth: AuthContext,
  source: Exclude<ContactImportSource, 'sheet'>,
  input: { whatsappId?: number | undefined },
): Promise<ContactImportView> => {
  const whatsappId = await connectedWhatsApp(auth.companyId, input.whatsappId);
  const id = randomUUID();
  const made = await putContactImport({
    id,
    companyId: auth.companyId,
    userId: auth.userId,
    fileName: FILE_NAMES[source],
    key: `c/${auth.companyId}/imports/${id}/${FILE_NAMES[source]}`,
    size: 0,
    source,
    whatsappId,
  });
  const request: PhoneContactsRequest = { importId: id, source };
  await putOutboxItem(auth.companyId, whatsappId, `PHONE#${id}`, 'phone-contacts', request);
  await wakeHolder(auth.companyId, whatsappId);
  await announceContactImport(made);
  return toImportView(made);
};

/** A CSV cell: quoted, inner quotes doubled (names may hold `;`, `"` or line breaks). */
const cell = (text: string): string => `"${text.replace(/"/g, '""')}"`;

/** The holder listed the phone's people: they become the import's file, and the import is queued. */
export const importPhoneContacts = async (
  companyId: number,
  request: PhoneContactsRequest,
  people: readonly { number: string; name?: string }[],
): Promise<void> => {
  const current = await getContactImport(companyId, request.importId);
  if (current?.status === 'queued') {
    // An earlier attempt queued it and may have died before the job's message went: send it (again).
    await sendQueueMessage('contact-import', { companyId, importId: current.id });
    return;
  }
  if (!current || current.status !== 'uploaded') return; // done by an earlier attempt
  const lines = ['name;number', ...people.map((p) => `${cell(p.name?.trim() || p.number)};${cell(p.number)}`)];
  await putMediaObject(current.key, Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8'), 'text/csv');
  try {
    const queued = await queueContactImport(current, ['name', 'number'], []);
    await sendQueueMessage('contact-import', { companyId, importId: queued.id });
    await announceContactImport(queued);
  } catch (err) {
    if (!(err instanceof Conflict)) throw err; // queued by an earlier attempt meanwhile
  }
};

/** The phone could not be read (no session that can, or it kept failing): the import fails with the reason. */
export const failPhoneImport = async (
  companyId: number,
  request: PhoneContactsRequest,
  code: string,
): Promise<void> => {
  const current = await getContactImport(companyId, request.importId);
  if (!current || current.status !== 'uploaded') return;
  try {
    await announceContactImport(await failContactImport(current, code));
  } catch (err) {
    if (!(err instanceof Conflict)) throw err;
  }
};
