import {
  attachIdentity,
  createContact,
  findContactIdsByIdentities,
  getContact,
  IdentityTaken,
  moveIdentity,
  updateContactFromInbound,
  type Contact,
  type ContactChannel,
  type InboundContactChanges,
} from '../../data/contact-repository';
import type { ReadAhead } from '../../data/consistent-reads';
import { enqueueContactMerge, moveOpenTickets } from '../contacts/contact-merge';
import { ServiceUnavailable } from '../../shared/errors';
import { logger } from '../../shared/logger';
import type { InboundMessage } from '../pipeline/inbound-event';

/**
 * One contact per person per company (data-model §2.12): whoever the event names — a phone number, a
 * WhatsApp LID, both, a group, a Meta page-scoped id — is looked up by identity, and created with all its
 * identities in one conditional transaction when unknown. Parallel first messages of one person converge:
 * the losers of the create find the winner's identities and use that contact. An identity learnt later (the
 * LID of a phone contact, the phone of a LID contact) is attached to the same contact. When phone and LID
 * turn out to name two contacts made before the mapping was known, the LID is moved to the phone contact
 * and the other is marked `mergedInto`; its tickets, messages, notes and tags follow (contact-merge.ts, D77).
 */
export interface ContactSubject {
  channel: ContactChannel;
  isGroup: boolean;
  /** Identities, the preferred one (phone) first. */
  identities: string[];
  number: string;
  lid?: string;
  /** What the person calls themselves (push name) or the group subject. */
  name?: string;
}

const groupIdOf = (chatId: string): string => chatId.replace(/@g\.us$/, '');

export const contactSubjectOf = (event: InboundMessage): ContactSubject => {
  if (event.chat.isGroup) {
    const groupId = groupIdOf(event.chat.id);
    return {
      channel: 'whatsapp',
      isGroup: true,
      identities: [`wa#g:${groupId}`],
      number: groupId,
      ...(event.chat.name ? { name: event.chat.name } : {}),
    };
  }
  const who = event.contact!;
  const name = event.fromMe ? undefined : who.pushName || undefined;
  if (event.channel === 'facebook' || event.channel === 'instagram') {
    const ns = event.channel === 'facebook' ? 'fb' : 'ig';
    return {
      channel: event.channel,
      isGroup: false,
      identities: [`${ns}#${who.accountId}:${who.externalId}`],
      number: who.externalId ?? '',
      ...(name ? { name } : {}),
    };
  }
  return {
    channel: 'whatsapp',
    isGroup: false,
    identities: [...(who.phone ? [`wa#${who.phone}`] : []), ...(who.lid ? [`wa#lid:${who.lid}`] : [])],
    number: who.phone ?? '',
    ...(who.lid ? { lid: who.lid } : {}),
    ...(name ? { name } : {}),
  };
};

/** A contact "has no name" while its name is empty or only repeats its number or LID. */
const hasNoName = (c: Contact): boolean => !c.name.trim() || c.name === c.number || c.name === c.lid;

const fallbackName = (s: ContactSubject): string => s.name ?? (s.number || s.lid || 'Contato');

const changesFor = (c: Contact, s: ContactSubject): InboundContactChanges => {
  const changes: InboundContactChanges = {};
  // A person keeps the name someone gave them; a group is named by its subject on WhatsApp, renames too.
  if (s.name && s.name !== c.name && (hasNoName(c) || s.isGroup)) changes.name = s.name;
  if (s.number && !c.number) {
    changes.number = s.number;
    // A LID contact named after its LID is better named after its number until it says its name.
    if (!changes.name && hasNoName(c) && c.name !== s.number) changes.name = s.number;
  }
  if (s.lid && !c.lid) changes.lid = s.lid;
  return changes;
};

const ATTEMPTS = 8;
const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * 15 * attempt));

export interface ContactUpsert {
  contact: Contact;
  created: boolean;
  /** The contact's visible fields changed (name, number). */
  changed: boolean;
}

/** Picks the contact several identities should share: the phone's, else the oldest. */
const canonical = (subject: ContactSubject, found: Map<string, number>): number => {
  const phoneOwner = subject.identities.filter((i) => /^wa#\d/.test(i)).map((i) => found.get(i))[0];
  return phoneOwner ?? Math.min(...found.values());
};

export interface UpsertOptions {
  /** The inbound batch's reads ahead: its identities may have been read already (decisions D84). */
  readAhead?: ReadAhead;
  /**
   * Called as soon as the contact is known, when the person is known by every identity already (nothing
   * to create, attach or move), before the contact itself is read: the inbound job reads its open-ticket
   * guard in the same request.
   */
  onKnown?: (contactId: number) => void;
}

export const upsertContact = async (
  companyId: number,
  whatsappId: number,
  subject: ContactSubject,
  options: UpsertOptions = {},
): Promise<ContactUpsert> => {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const found = await findContactIdsByIdentities(companyId, subject.identities, options.readAhead);
    if (found.size === 0) {
      try {
        const contact = await createContact(
          companyId,
          {
            name: fallbackName(subject),
            number: subject.number,
            isGroup: subject.isGroup,
            channel: subject.channel,
            whatsappId,
            ...(subject.lid ? { lid: subject.lid } : {}),
          },
          subject.identities,
        );
        return { contact, created: true, changed: false };
      } catch (err) {
        if (err instanceof IdentityTaken || err instanceof ServiceUnavailable) {
          await pause(attempt);
          continue; // someone created this person a moment ago: read again and use theirs
        }
        throw err;
      }
    }

    let targetId = canonical(subject, found);
    if (attempt === 1 && subject.identities.every((i) => found.get(i) === targetId)) options.onKnown?.(targetId);
    let contact = await getContact(companyId, targetId);
    if (contact?.mergedInto !== undefined) {
      targetId = contact.mergedInto;
      contact = await getContact(companyId, targetId);
    }
    if (!contact || contact.deletedAt) {
      // Gone, or deleted through the API a moment ago (its identities are being freed): look again.
      await pause(attempt);
      continue;
    }
    const mergedNow: number[] = [];
    try {
      for (const identity of subject.identities) {
        const owner = found.get(identity);
        if (owner === targetId) continue;
        if (owner === undefined) await attachIdentity(companyId, targetId, identity);
        else {
          logger.info('contact identities merged', { companyId, from: owner, into: targetId });
          await moveIdentity(companyId, identity, owner, targetId);
          mergedNow.push(owner);
        }
      }
    } catch (err) {
      if (err instanceof IdentityTaken || err instanceof ServiceUnavailable) {
        await pause(attempt);
        continue; // another writer attached or moved it meanwhile: look again
      }
      throw err;
    }
    // The folded contact's history follows (decisions D77): its open tickets at once, so this message
    // continues its conversation, the rest in the merge job. A merge still pending (a retry after a crash
    // between the identity move and here) does both again; the queue drops repeats within five minutes.
    for (const from of new Set([...mergedNow, ...(contact.pendingMerges ?? [])])) {
      await moveOpenTickets(companyId, from, targetId);
      await enqueueContactMerge({ companyId, from, into: targetId });
    }
    const changes = changesFor(contact, subject);
    if (Object.keys(changes).length === 0) return { contact, created: false, changed: false };
    const updated = await updateContactFromInbound(contact, changes);
    return updated
      ? {
          contact: updated,
          created: false,
          changed: updated.name !== contact.name || updated.number !== contact.number,
        }
      : { contact: (await getContact(companyId, targetId)) ?? contact, created: false, changed: false };
  }
  throw new ServiceUnavailable();
};
