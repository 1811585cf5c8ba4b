import type { ContactListItemView, ContactListView } from '../../contracts/contact-lists';
import type { ContactList, ContactListItem } from '../../data/contact-list-repository';
import { errorFields, logger } from '../../shared/logger';
import { managers, publish } from '../notifier';

/**
 * Contact lists on the wire and their events (decisions D122): `company-{id}-ContactList` and
 * `company-{id}-ContactListItem`, to the company's managers (the screens are for admins).
 */
export const toContactListView = (l: ContactList): ContactListView => ({
  id: l.id,
  name: l.name,
  contactsCount: Math.max(0, l.contactsCount ?? 0),
  createdAt: l.createdAt,
  updatedAt: l.updatedAt,
});

export const toContactListItemView = (i: ContactListItem): ContactListItemView => ({
  id: i.id,
  name: i.name,
  number: i.number,
  email: i.email ?? '',
  isWhatsappValid: i.isWhatsappValid ?? null,
  companyId: i.companyId,
  contactListId: i.contactListId,
  createdAt: i.createdAt,
  updatedAt: i.updatedAt,
});

type ListEvent =
  | { channel: 'ContactList'; action: 'create' | 'update'; record: ContactListView }
  | { channel: 'ContactList'; action: 'delete'; id: number }
  | { channel: 'ContactListItem'; action: 'create' | 'update'; record: ContactListItemView }
  | { channel: 'ContactListItem'; action: 'delete'; id: number; contactListId: number }
  | { channel: 'ContactListItem'; action: 'reload'; contactListId: number };

/** Best effort, like every list event: a lost event is healed by the next load. */
export const announceContactList = async (companyId: number, events: ListEvent[]): Promise<void> => {
  try {
    await publish(companyId, events, managers);
  } catch (err) {
    logger.warn('contact list event not sent', { companyId, ...errorFields(err) });
  }
};
