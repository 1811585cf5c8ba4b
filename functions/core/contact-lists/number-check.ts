import * as z from 'zod';
import { getDefaultConnectionId } from '../../data/connection-repository';
import { setItemWhatsappValid } from '../../data/contact-list-repository';
import { putOutboxItem } from '../../data/wa-outbox-repository';
import { newUlid } from '../../data/ulids';
import { errorFields, logger } from '../../shared/logger';
import { wakeHolder } from '../pipeline/worker-outbox';
import { announceContactList, toContactListItemView } from './contact-list-events';

/**
 * isWhatsappValid of a contact list's items, through the connection's driver (decisions D122): the numbers
 * to check go into the company's default connection's outbox as one `check` item (the holder of the
 * session carries it out with the driver's directory lookup: Baileys' `onWhatsApp`, or the simulator's
 * rule), and the answers are written onto the items and announced on `company-{id}-ContactListItem`.
 * Until a connected session answers, an item's isWhatsappValid stays null ("not checked"); a connection
 * that is down keeps the check in its outbox until it connects.
 */
export const numberCheckSchema = z.object({
  contactListId: z.number().int().positive(),
  numbers: z
    .array(z.string().regex(/^\d{8,20}$/))
    .min(1)
    .max(500),
});

/** Best effort: a check that cannot be queued leaves the items unchecked (null), never fails the write. */
export const queueNumberCheck = async (
  companyId: number,
  contactListId: number,
  numbers: readonly string[],
): Promise<void> => {
  if (numbers.length === 0) return;
  try {
    const whatsappId = await getDefaultConnectionId(companyId);
    if (whatsappId === null) return;
    const payload = { contactListId, numbers: [...new Set(numbers)] } satisfies z.input<typeof numberCheckSchema>;
    await putOutboxItem(companyId, whatsappId, `CHECK#${newUlid(Date.now())}`, 'check', payload);
    await wakeHolder(companyId, whatsappId);
  } catch (err) {
    logger.warn('number check not queued', { companyId, contactListId, ...errorFields(err) });
  }
};

/** The holder's answers onto the items still in the list, then one event per changed item. */
export const recordWhatsappChecks = async (
  companyId: number,
  contactListId: number,
  answers: Record<string, boolean>,
): Promise<void> => {
  const changed = [];
  for (const [number, valid] of Object.entries(answers)) {
    const item = await setItemWhatsappValid(companyId, contactListId, number, valid);
    if (item) changed.push(item);
  }
  if (changed.length === 0) return;
  await announceContactList(
    companyId,
    changed.map((item) => ({
      channel: 'ContactListItem' as const,
      action: 'update' as const,
      record: toContactListItemView(item),
    })),
  );
};
