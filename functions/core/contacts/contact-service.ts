import type { AuthContext } from '../../shared/auth-context';
import { BadRequest, Conflict, NotFound, ValidationError } from '../../shared/errors';
import { importNumber } from '../phone-number';
import { askDirectory, connectedWhatsApp } from './directory-check';
import { errorFields, logger } from '../../shared/logger';
import { fetchPage, type PagingInput } from '../paging';
import type { ContactPage, ContactView } from '../../contracts/contacts';
import { toContactView } from '../tickets/ticket-views';
import { getCompanySettingsItem } from '../../data/settings-repository';
import { listCompanyConnections } from '../../data/ws-connection-repository';
import { managers, publishToConnections } from '../notifier';
import {
  countCompanyContacts,
  createContact,
  deleteContact,
  findContactIdsByIdentities,
  getContact,
  getLiveContact,
  hasOpenTicket,
  IdentityTaken,
  listContacts,
  numberDigits,
  searchContactsByNumber,
  updateContact,
  type Contact,
  type ContactChannel,
  type ContactChanges,
} from '../../data/contact-repository';
import { maskContactFor, shouldMaskNumbers } from '../privacy/number-mask';
import { searchForm } from '../../data/keys';
import { contactUnlinkItems, listContactsByTags, renameContactTagLinks } from '../../data/tag-repository';
import { CHANGED_MEANWHILE, withRetry } from '../../shared/retry';

/**
 * Contacts of a company (core spec §2 contacts list and drawer, §3 Contact, §5, §6, §7; decisions D42).
 * Contacts are company-wide: every user of the company reads and edits them; only admins delete
 * (contacts-page:deleteContact). A number belongs to one contact: the phone identity item (data-model
 * §2.12), the same guard the inbound pipeline's upsert uses, so a manual create and an inbound message for
 * one number can never make two contacts.
 */
export const CONTACT_PAGE_SIZE = 20;
/** `GET /contacts/list` answers at most this many per call (pickers; the rest by `x-next-cursor`). */
export const CONTACT_NAMES_PAGE_SIZE = 1000;

const CHANNELS: ContactChannel[] = ['whatsapp', 'instagram', 'facebook'];

const hideNumberSetting = async (companyId: number) =>
  (await getCompanySettingsItem(companyId)).lgpdHideNumber as string | undefined;

/** A viewer's answer: masked numbers for plain users when the company hides them (LGPD). */
const viewerMask = async (auth: AuthContext) => shouldMaskNumbers(auth, await hideNumberSetting(auth.companyId));

const viewFor = (contact: Contact, mask: boolean): ContactView => maskContactFor(toContactView(contact), mask);

/**
 * `company-{id}-contact` to every user of the company (contacts are company-wide, D42): admins get the
 * whole number, plain users the masked one when the company hides numbers. Best effort, like the users'.
 */
const announce = async (
  companyId: number,
  event: { action: 'update'; contact: Contact } | { action: 'delete'; contactId: number },
) => {
  try {
    const connections = await listCompanyConnections(companyId);
    if (connections.length === 0) return;
    if (event.action === 'delete') {
      await publishToConnections(
        connections,
        companyId,
        { channel: 'contact', action: 'delete', contactId: event.contactId },
        () => true,
      );
      return;
    }
    const mask = shouldMaskNumbers({ profile: 'user', super: false }, await hideNumberSetting(companyId));
    await publishToConnections(
      connections,
      companyId,
      { channel: 'contact', action: 'update', contact: viewFor(event.contact, false) },
      managers,
    );
    await publishToConnections(
      connections,
      companyId,
      { channel: 'contact', action: 'update', contact: viewFor(event.contact, mask) },
      (c) => !managers(c),
    );
  } catch (err) {
    logger.warn('contact event not sent', { companyId, ...errorFields(err) });
  }
};

export interface ContactListInput extends PagingInput {
  searchParam?: string | undefined;
  contactTag?: number[] | undefined;
  channel?: ContactChannel | undefined;
  isGroup?: boolean | undefined;
}

/** `company-{id}-contact` update for a contact changed elsewhere (its tags, decisions D55). */
export const announceContact = (companyId: number, contact: Contact): Promise<void> =>
  announce(companyId, { action: 'update', contact });

/** `company-{id}-contact` delete for a contact that left the lists elsewhere (folded into another, D77). */
export const announceContactRemoved = (companyId: number, contactId: number): Promise<void> =>
  announce(companyId, { action: 'delete', contactId });

/** Digits and phone punctuation only: a search by number. */
const isNumberSearch = (s: string) => /^[\d\s()+\-.]+$/.test(s) && /\d/.test(s);

export const listCompanyContacts = async (auth: AuthContext, q: ContactListInput): Promise<ContactPage> => {
  const search = q.searchParam?.trim() ?? '';
  const tagIds = q.contactTag && q.contactTag.length > 0 ? q.contactTag : undefined;
  const channels = q.channel ? [q.channel] : CHANNELS;
  const kinds = channels.flatMap((channel) =>
    (q.isGroup === undefined ? [false, true] : [q.isGroup]).map((isGroup) => ({ channel, isGroup })),
  );
  const page = await fetchPage(q, CONTACT_PAGE_SIZE, (cursor) =>
    // By tags: a Query of each tag's link partition, merged by name (D55); a number search keeps its own
    // index and filters on the contact's tagIds.
    tagIds && !(search && isNumberSearch(search))
      ? listContactsByTags(auth.companyId, {
          tagIds,
          kinds,
          namePrefix: search ? searchForm(search) : undefined,
          limit: CONTACT_PAGE_SIZE,
          cursor,
        })
      : search && isNumberSearch(search)
        ? searchContactsByNumber(auth.companyId, {
            digits: numberDigits(search),
            ...(q.channel ? { channels } : {}),
            ...(q.isGroup === undefined ? {} : { isGroup: q.isGroup }),
            ...(tagIds ? { tagIds } : {}),
            limit: CONTACT_PAGE_SIZE,
            cursor,
          })
        : listContacts(auth.companyId, {
            kinds,
            namePrefix: search ? searchForm(search) : undefined,
            limit: CONTACT_PAGE_SIZE,
            cursor,
          }),
  );
  const filtered = Boolean(search || tagIds || q.channel || q.isGroup !== undefined);
  const mask = await viewerMask(auth);
  return {
    contacts: page.items.map((c) => viewFor(c, mask)),
    hasMore: page.hasMore,
    // Exact from the counter without filters; with filters, what was found so far (data-model §1.7).
    count: filtered
      ? (q.cursor ? 0 : (q.pageNumber - 1) * CONTACT_PAGE_SIZE) + page.items.length
      : await countCompanyContacts(auth.companyId),
    countIsExact: !filtered,
    ...(page.nextCursor ? ({ nextCursor: page.nextCursor } satisfies Partial<ContactPage>) : {}),
  };
};

/** Ids, names and numbers for pickers, by name, at most 1,000 per call. */
export const listCompanyContactNames = async (
  auth: AuthContext,
  cursor: string | undefined,
): Promise<{ contacts: { id: number; name: string; number: string }[]; nextCursor?: string }> => {
  const page = await listContacts(auth.companyId, {
    kinds: CHANNELS.flatMap((channel) => [false, true].map((isGroup) => ({ channel, isGroup }))),
    limit: CONTACT_NAMES_PAGE_SIZE,
    cursor,
  });
  const mask = await viewerMask(auth);
  return {
    contacts: page.items.map((c) => {
      const { id, name, number } = maskContactFor(c, mask);
      return { id, name, number };
    }),
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
};

export const showContact = async (auth: AuthContext, id: number): Promise<ContactView> =>
  viewFor(await getLiveContact(auth.companyId, id), await viewerMask(auth));

/** `GET /contacts/profile/{number}`: the contact of a WhatsApp number (by its identity item). */
export const contactProfile = async (
  auth: AuthContext,
  number: string,
): Promise<{ contactId: number; urlPicture: string }> => {
  const identity = `wa#${numberDigits(number)}`;
  const id = numberDigits(number)
    ? (await findContactIdsByIdentities(auth.companyId, [identity])).get(identity)
    : undefined;
  const contact = id === undefined ? null : await getContact(auth.companyId, id);
  if (!contact || contact.deletedAt) throw new NotFound('ERR_NO_CONTACT_FOUND', 'Contact not found');
  return { contactId: contact.id, urlPicture: contact.urlPicture };
};

export interface ContactInput {
  name?: string | undefined;
  number?: string | undefined;
  email?: string | undefined;
  disableBot?: boolean | undefined;
  extraInfo?: { name: string; value: string }[] | undefined;
}

const phoneOf = (number: string): string => {
  const digits = numberDigits(number);
  if (digits.length < 8) {
    throw new BadRequest('ERR_VALIDATION', 'Invalid request', [
      { field: 'body.number', reason: 'must have at least 8 digits' },
    ]);
  }
  return digits;
};

const extraInfoOf = (list: { name: string; value: string }[]) =>
  list.map((e, i) => ({ id: i + 1, name: e.name, value: e.value }));

export const createCompanyContact = async (
  auth: AuthContext,
  input: ContactInput & { name: string; number: string },
): Promise<ContactView> => {
  const number = phoneOf(input.number);
  const contact = await createContact(
    auth.companyId,
    {
      name: input.name,
      number,
      isGroup: false,
      channel: 'whatsapp',
      whatsappId: null,
      email: input.email ?? '',
      disableBot: input.disableBot ?? false,
      extraInfo: extraInfoOf(input.extraInfo ?? []),
    },
    [`wa#${number}`],
  );
  await announce(auth.companyId, { action: 'update', contact });
  return viewFor(contact, await viewerMask(auth));
};

/**
 * POST /contactsImport (core §7): one row of a browser-side import. The number takes the import's normal
 * form (D105); a number already a contact keeps that contact unchanged (`created: false`, like a merged
 * row); with `validateContact` a new number becomes a contact only when WhatsApp knows it, asked through the
 * default connection (decisions D149): 400 `ERR_WAPP_INVALID_CONTACT` when it does not.
 */
export const importCompanyContactRow = async (
  auth: AuthContext,
  input: { name: string; number: string; email: string; validateContact: boolean },
): Promise<{ created: boolean; contact: ContactView }> => {
  const number = importNumber(input.number);
  if (!number) throw new ValidationError([{ field: 'body.number', reason: 'not a phone number' }]);
  const existingOf = async (): Promise<Contact | null> => {
    const owner = (await findContactIdsByIdentities(auth.companyId, [`wa#${number}`])).get(`wa#${number}`);
    return owner === undefined ? null : getContact(auth.companyId, owner);
  };
  const mask = await viewerMask(auth);
  const found = await existingOf();
  if (found) return { created: false, contact: viewFor(found, mask) };
  if (input.validateContact) {
    const whatsappId = await connectedWhatsApp(auth.companyId, undefined);
    const known = await askDirectory(auth.companyId, whatsappId, [number], { timeoutMs: ROW_DIRECTORY_WAIT_MS });
    if (known[number] !== true) throw new BadRequest('ERR_WAPP_INVALID_CONTACT', 'This number is not on WhatsApp');
  }
  try {
    const contact = await createContact(
      auth.companyId,
      {
        name: input.name.replace(/\s+/g, ' ').slice(0, 250),
        number,
        isGroup: false,
        channel: 'whatsapp',
        whatsappId: null,
        email: input.email,
      },
      [`wa#${number}`],
    );
    await announce(auth.companyId, { action: 'update', contact });
    return { created: true, contact: viewFor(contact, mask) };
  } catch (err) {
    // Made meanwhile (an inbound message, the same row sent twice): the row merges into it.
    if (!(err instanceof IdentityTaken)) throw err;
    const winner = await existingOf();
    if (!winner) throw err;
    return { created: false, contact: viewFor(winner, mask) };
  }
};

/** How long one row of POST /contactsImport waits for WhatsApp's directory (the browser sends one every 330 ms). */
const ROW_DIRECTORY_WAIT_MS = 10_000;

/** Read-modify-write with the contact's `updatedAt` as the condition; retried when another edit won. */
const change = async (
  auth: AuthContext,
  id: number,
  build: (current: Contact) => { changes: ContactChanges; identityMove?: { from?: string; to: string } },
): Promise<Contact> => {
  // Changed between our read and our write: read again and rebuild the change.
  const { current, updated } = await withRetry(CHANGED_MEANWHILE, async () => {
    const current = await getLiveContact(auth.companyId, id);
    const { changes, identityMove } = build(current);
    return { current, updated: await updateContact(current, changes, identityMove) };
  });
  // The tag links sort by the contact's name (D55).
  if (updated.name !== current.name && updated.tagIds.length > 0) await renameContactTagLinks(updated);
  await announce(auth.companyId, { action: 'update', contact: updated });
  return updated;
};

export const updateCompanyContact = async (
  auth: AuthContext,
  id: number,
  input: ContactInput,
): Promise<ContactView> => {
  const updated = await change(auth, id, (current) => {
    const changes: ContactChanges = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.email !== undefined ? { email: input.email } : {}),
      ...(input.disableBot !== undefined ? { disableBot: input.disableBot } : {}),
      ...(input.extraInfo !== undefined ? { extraInfo: extraInfoOf(input.extraInfo) } : {}),
    };
    if (input.number === undefined) return { changes };
    const mask = shouldMaskNumbers(auth, 'enabled');
    // A plain user who sees a masked number sends it back unchanged: that is no number change.
    if (mask && input.number === maskContactFor(current, true).number) return { changes };
    if (current.isGroup || current.channel !== 'whatsapp') {
      if (input.number === current.number) return { changes };
      throw new BadRequest('ERR_VALIDATION', 'Invalid request', [
        { field: 'body.number', reason: 'cannot be changed for a group or a Facebook/Instagram contact' },
      ]);
    }
    const number = phoneOf(input.number);
    if (number === current.number) return { changes };
    return {
      changes: { ...changes, number },
      identityMove: { ...(current.number ? { from: `wa#${current.number}` } : {}), to: `wa#${number}` },
    };
  });
  return viewFor(updated, await viewerMask(auth));
};

/**
 * Deletes a contact (admins only: the route). A contact with a not-closed ticket is refused with
 * ERR_OTHER_OPEN_TICKET (close it first); otherwise it leaves lists and lookups, and its closed tickets
 * and messages stay as history (D42).
 */
export const deleteCompanyContact = async (auth: AuthContext, id: number): Promise<void> => {
  const current = await getLiveContact(auth.companyId, id);
  const open = await hasOpenTicket(auth.companyId, id);
  if (open !== null) {
    throw new Conflict(
      'ERR_OTHER_OPEN_TICKET',
      'The contact has an open ticket: close it before deleting the contact',
      {
        ticketId: open,
      },
    );
  }
  // Its tag links go with it and the tags count it no more (D100).
  await deleteContact(current, await contactUnlinkItems(current));
  await announce(auth.companyId, { action: 'delete', contactId: id });
};

export const blockCompanyContact = async (auth: AuthContext, id: number, active: boolean): Promise<ContactView> =>
  viewFor(await change(auth, id, () => ({ changes: { active } })), await viewerMask(auth));

export const toggleContactAcceptAudio = async (auth: AuthContext, id: number): Promise<ContactView> =>
  viewFor(
    await change(auth, id, (c) => ({ changes: { acceptAudioMessage: !c.acceptAudioMessage } })),
    await viewerMask(auth),
  );

export const toggleContactDisableBot = async (auth: AuthContext, id: number): Promise<ContactView> =>
  viewFor(await change(auth, id, (c) => ({ changes: { disableBot: !c.disableBot } })), await viewerMask(auth));

/**
 * Every contact of the company as `GET /contacts` (no filters) shows them to this viewer — same order,
 * numbers masked the same way — a page at a time: the contacts export (decisions D129).
 */
export async function* allContactViews(auth: AuthContext, pageSize: number): AsyncGenerator<ContactView[]> {
  const kinds = CHANNELS.flatMap((channel) => [false, true].map((isGroup) => ({ channel, isGroup })));
  const mask = await viewerMask(auth);
  let cursor: string | undefined;
  do {
    const page = await listContacts(auth.companyId, { kinds, limit: pageSize, cursor });
    if (page.items.length > 0) yield page.items.map((c) => viewFor(c, mask));
    cursor = page.hasMore ? page.nextCursor : undefined;
  } while (cursor);
}

/** How many contacts the company has (the export's progress total). */
export const companyContactCount = (auth: AuthContext): Promise<number> => countCompanyContacts(auth.companyId);
