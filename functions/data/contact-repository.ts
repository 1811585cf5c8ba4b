import {
  BatchGetCommand,
  GetCommand,
  QueryCommand,
  UpdateCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { ContactChannel } from '../contracts/contacts';
import { Conflict, NotFound } from '../shared/errors';
import { db, tableName } from './client';
import { transactWrite, type TransactItem } from './transactions';
import { nextId } from './counter-repository';
import { consistentGet, consistentGetAhead, type ReadAhead } from './consistent-reads';
import { mapDynamoErrors } from './errors';
import { decodeCursor, encodeCursor } from './cursor';
import { company, pad, searchForm } from './keys';
import { queryPage, type Page } from './query-page';
import { leadUpdate } from './ticket-stats';

/**
 * Contact and its identities (docs/data-model.md §2.12). Items:
 * - contact `pk = C#<c>#CT#<pad id>, sk = CONTACT`, listed by name on gsi1
 *   `C#<c>#CONTACT#<channel>#<P|G>` → `<searchForm name>#<pad id>` (P person, G group);
 * - identity `pk = C#<c>#CTID#<ns>#<value>, sk = CTID` (contactId): `wa#<digits>` (phone, shared by Baileys
 *   and the Cloud API), `wa#lid:<digits>` (WhatsApp LID), `wa#g:<group id>`, `fb#<pageId>:<psid>`,
 *   `ig#<accountId>:<igsid>`. An identity names exactly one contact, so one person is one contact: the
 *   create transaction and every later attachment are conditional on the identity being free (or already
 *   this contact's). The contact keeps its identities as a string set (`identities`), so a contact delete
 *   can find them (reachability rule, §4).
 * - the number index: gsi2 `C#<c>#CTNUM` → `<number digits>#<pad id>` (contacts with a number), so a search
 *   by number is a prefix Query (decisions D42);
 * - the company's contact count `C#<c>#STATS#NOW / CONTACTS` (attribute `n`), moved by create and delete.
 */
export type { ContactChannel } from '../contracts/contacts';

export interface Contact {
  id: number;
  companyId: number;
  name: string;
  number: string;
  email: string;
  extraInfo: { id?: number; name: string; value: string }[];
  disableBot: boolean;
  lgpdAcceptedAt: string | null;
  /** false = blocked (spec). */
  active: boolean;
  acceptAudioMessage: boolean;
  isGroup: boolean;
  channel: ContactChannel;
  urlPicture: string;
  /** The connection the contact first arrived on. */
  whatsappId: number | null;
  tagIds: number[];
  identities: string[];
  /** WhatsApp LID digits, when known. */
  lid?: string;
  /** Set when this contact was folded into another one (a LID contact whose phone became known). */
  mergedInto?: number;
  /** Contacts folded into this one whose tickets, messages and notes are still being moved here (D77). */
  pendingMerges?: number[];
  /** Deleted through the contacts API: out of lists and lookups, kept for its tickets' history (D42). */
  deletedAt?: string;
  /** Created by a spreadsheet import's row: `<importId>#<row>` (so a replayed chunk counts it once, D105). */
  importRef?: string;
  createdAt: string;
  updatedAt: string;
}

export const contactPartition = (companyId: number, id: number): string => `${company(companyId)}#CT#${pad(id)}`;
export const contactKeys = (companyId: number, id: number) => ({ pk: contactPartition(companyId, id), sk: 'CONTACT' });
export const contactListPartition = (companyId: number, channel: ContactChannel, isGroup: boolean): string =>
  `${company(companyId)}#CONTACT#${channel}#${isGroup ? 'G' : 'P'}`;
export const contactNumberPartition = (companyId: number): string => `${company(companyId)}#CTNUM`;
export const numberDigits = (number: string): string => number.replace(/\D/g, '');
/** The list (gsi1) and number (gsi2, only with a number) index keys of a contact. */
export const contactIndexKeys = (
  c: Pick<Contact, 'companyId' | 'id' | 'channel' | 'isGroup' | 'name' | 'number'>,
): { gsi1pk: string; gsi1sk: string; gsi2pk?: string; gsi2sk?: string } => {
  const digits = numberDigits(c.number ?? '');
  return {
    gsi1pk: contactListPartition(c.companyId, c.channel, c.isGroup),
    gsi1sk: `${searchForm(c.name)}#${pad(c.id)}`,
    ...(digits ? { gsi2pk: contactNumberPartition(c.companyId), gsi2sk: `${digits}#${pad(c.id)}` } : {}),
  };
};
export const contactStatsKeys = (companyId: number) => ({ pk: `${company(companyId)}#STATS#NOW`, sk: 'CONTACTS' });
export const identityKeys = (companyId: number, identity: string) => ({
  pk: `${company(companyId)}#CTID#${identity}`,
  sk: 'CTID',
});

const toContact = (item: Record<string, unknown>): Contact => {
  const {
    pk: _pk,
    sk: _sk,
    gsi1pk: _a,
    gsi1sk: _b,
    gsi2pk: _c,
    gsi2sk: _d,
    type: _t,
    version: _v,
    identities,
    pendingMerges,
    ...rest
  } = item;
  return {
    ...(rest as unknown as Contact),
    identities:
      identities instanceof Set || Array.isArray(identities)
        ? [...(identities as Iterable<unknown>)].map(String).sort()
        : [],
    ...(pendingMerges instanceof Set && pendingMerges.size > 0
      ? { pendingMerges: [...(pendingMerges as Set<unknown>)].map(Number).sort((a, b) => a - b) }
      : {}),
  };
};

/**
 * The `contactId` of an identity item a failed condition returned (ALL_OLD): transaction cancellation
 * reasons carry it in DynamoDB's attribute-value form (`{N: '42'}`), single writes as a number.
 */
const failedOwner = (item: Record<string, unknown> | undefined): number | null => {
  const v = item?.contactId as { N?: string } | number | undefined;
  if (v === undefined) return null;
  const n = typeof v === 'object' ? Number(v.N) : Number(v);
  return Number.isSafeInteger(n) ? n : null;
};

/** The identity is another contact's (`contactId` names it), or the contact to update is gone. */
export class IdentityTaken extends Conflict {
  constructor(readonly contactId: number | null) {
    super('ERR_DUPLICATED_CONTACT', 'Contact with this number exists', contactId === null ? undefined : { contactId });
  }
}

export const getContact = async (companyId: number, id: number): Promise<Contact | null> => {
  const item = await consistentGet(contactKeys(companyId, id));
  return item ? toContact(item) : null;
};

/** Which contact each identity names (consistent reads: a contact created a moment ago is found). */
export const findContactIdsByIdentities = async (
  companyId: number,
  identities: readonly string[],
  readAhead?: ReadAhead,
): Promise<Map<string, number>> => {
  const found = new Map<string, number>();
  const unique = [...new Set(identities)];
  const items = await Promise.all(unique.map((i) => consistentGetAhead(identityKeys(companyId, i), readAhead)));
  items.forEach((item, i) => {
    if (item) found.set(unique[i]!, Number(item.contactId));
  });
  return found;
};

/** Starts reading the contacts of these identities, for `findContactIdsByIdentities` with `readAhead`. */
export const readIdentitiesAhead = (readAhead: ReadAhead, companyId: number, identities: readonly string[]): void => {
  for (const identity of new Set(identities)) readAhead.prefetch(identityKeys(companyId, identity));
};

export type NewContact = Pick<Contact, 'name' | 'number' | 'isGroup' | 'channel' | 'whatsappId'> &
  Partial<Pick<Contact, 'lid' | 'urlPicture' | 'email' | 'extraInfo' | 'disableBot'>>;

/** Moves the company's contact count (best effort after the write it follows: at most one off on a crash). */
/** The company's contact count moving by `by`, as an item of the caller's transaction. */
export const contactCountUpdate = (companyId: number, by: number) => ({
  Update: {
    Key: contactStatsKeys(companyId),
    UpdateExpression: 'ADD n :by',
    ExpressionAttributeValues: { ':by': by },
  },
});

const countContacts = async (companyId: number, by: 1 | -1): Promise<void> => {
  await mapDynamoErrors(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: contactStatsKeys(companyId),
        UpdateExpression: 'ADD n :by',
        ExpressionAttributeValues: { ':by': by },
      }),
    ),
  );
};

/**
 * Creates a contact with its identities, all or nothing. A taken identity (another writer created the
 * person a moment ago) is `IdentityTaken` naming that contact; the counter id is then a harmless gap.
 */
export const createContact = async (
  companyId: number,
  input: NewContact,
  identities: readonly string[],
  /**
   * An id reserved beforehand (imports take ranges, data-model §1.4) and the import row that creates it.
   * `uncounted`: the day's lead and the company's contact count are left to the caller, who moves them once
   * for many contacts (an import chunk's record, decisions D104) instead of on two hot items per contact.
   */
  options: { id?: number; importRef?: string; uncounted?: boolean } = {},
): Promise<Contact> => {
  const id = options.id ?? (await nextId(companyId, 'contact'));
  const now = new Date().toISOString();
  const contact: Contact = {
    email: '',
    extraInfo: [],
    disableBot: false,
    lgpdAcceptedAt: null,
    active: true,
    acceptAudioMessage: true,
    urlPicture: '',
    tagIds: [],
    ...input,
    ...(options.importRef ? { importRef: options.importRef } : {}),
    identities: [...new Set(identities)].sort(),
    id,
    companyId,
    createdAt: now,
    updatedAt: now,
  };
  await transactWrite(
    [
      ...contact.identities.map((identity) => ({
        Put: {
          Item: { ...identityKeys(companyId, identity), type: 'CTID', companyId, identity, contactId: id },
          ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
        },
      })),
      {
        Put: {
          Item: {
            ...contactKeys(companyId, id),
            ...contactIndexKeys(contact),
            type: 'CONTACT',
            ...contact,
            identities: new Set(contact.identities),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      // A new person is the day's lead (dashboard, decisions D109).
      ...(contact.isGroup || options.uncounted ? [] : [await leadUpdate(companyId, now)]),
    ],
    (failure) => new IdentityTaken(failedOwner(failure.item)),
  );
  if (!options.uncounted) await countContacts(companyId, 1);
  return contact;
};

/**
 * Gives a contact one more identity (its LID became known, or its phone): the identity item and the
 * contact's set change together. `IdentityTaken` when the identity already names another contact (with
 * its id) or the contact is gone (null).
 */
export const attachIdentity = async (companyId: number, contactId: number, identity: string): Promise<void> => {
  await transactWrite(
    [
      {
        Put: {
          Item: { ...identityKeys(companyId, identity), type: 'CTID', companyId, identity, contactId },
          ConditionExpression: 'attribute_not_exists(pk) OR contactId = :id',
          ExpressionAttributeValues: { ':id': contactId },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      {
        Update: {
          Key: contactKeys(companyId, contactId),
          UpdateExpression: 'ADD identities :identity',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':identity': new Set([identity]) },
        },
      },
    ],
    (failure) =>
      new IdentityTaken(failure.reasons?.[0] === 'ConditionalCheckFailed' ? failedOwner(failure.item) : null),
  );
};

/**
 * Moves an identity from one contact to another (a LID contact folded into the phone contact), and marks
 * the old contact `mergedInto`. Conditional on the identity still naming `fromId`.
 */
export const moveIdentity = async (
  companyId: number,
  identity: string,
  fromId: number,
  toId: number,
): Promise<void> => {
  await transactWrite(
    [
      {
        Put: {
          Item: { ...identityKeys(companyId, identity), type: 'CTID', companyId, identity, contactId: toId },
          ConditionExpression: 'contactId = :from',
          ExpressionAttributeValues: { ':from': fromId },
        },
      },
      {
        Update: {
          Key: contactKeys(companyId, toId),
          // The old contact's history is now to move here (decisions D77): the merge job clears it.
          UpdateExpression: 'ADD identities :identity, pendingMerges :from',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':identity': new Set([identity]), ':from': new Set([fromId]) },
        },
      },
      {
        Update: {
          Key: contactKeys(companyId, fromId),
          UpdateExpression: 'DELETE identities :identity SET mergedInto = :to, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: {
            ':identity': new Set([identity]),
            ':to': toId,
            ':now': new Date().toISOString(),
          },
        },
      },
    ],
    () => new IdentityTaken(null),
  );
  await unlistMergedContact(companyId, fromId);
};

/**
 * A contact folded into another leaves the lists, the number index and the count (decisions D42): it only
 * lives on for its tickets' history. Conditional on it still being listed, so the count moves once.
 */
const unlistMergedContact = async (companyId: number, id: number): Promise<void> => {
  try {
    await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: contactKeys(companyId, id),
          UpdateExpression: 'REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk',
          ConditionExpression: 'attribute_exists(mergedInto) AND attribute_exists(gsi1pk)',
        }),
      ),
    );
  } catch (err) {
    if (err instanceof Conflict) return; // unlisted before
    throw err;
  }
  await countContacts(companyId, -1);
};

export type InboundContactChanges = Partial<Pick<Contact, 'name' | 'number' | 'lid'>>;

/**
 * What an inbound message teaches about a contact (a push name for a contact without a name, the phone of a
 * LID contact). Conditional on the name still being what the caller saw, so an attendant's rename in
 * between is never overwritten; answers the contact as stored afterwards, or null when the condition
 * failed (the caller keeps what it has).
 */
export const updateContactFromInbound = async (
  contact: Contact,
  changes: InboundContactChanges,
): Promise<Contact | null> => {
  const next = { ...contact, ...changes, updatedAt: new Date().toISOString() };
  const fields: Record<string, unknown> = { ...changes, updatedAt: next.updatedAt };
  if (changes.name !== undefined || changes.number !== undefined) Object.assign(fields, contactIndexKeys(next));
  const names: Record<string, string> = { '#seen': 'name' };
  const values: Record<string, unknown> = { ':seen': contact.name };
  const sets = Object.entries(fields).map(([k, v], i) => {
    names[`#f${i}`] = k;
    values[`:f${i}`] = v;
    return `#f${i} = :f${i}`;
  });
  try {
    const out = await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: contactKeys(contact.companyId, contact.id),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAt) AND #seen = :seen',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return out.Attributes ? toContact(out.Attributes) : null;
  } catch (err) {
    if (err instanceof Conflict) return null;
    throw err;
  }
};

// ------------------------------------------------------------------------------- the contacts API (D42)

const MAX_SUFFIX = '\u{10FFFF}';

/** A FilterExpression over contact attributes: any of the tags (contacts' `tagIds`), channel, kind. */
const contactFilter = (f: { tagIds?: number[]; channels?: ContactChannel[]; isGroup?: boolean }) => {
  const parts: string[] = ['attribute_not_exists(deletedAt)'];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (f.tagIds && f.tagIds.length > 0) {
    names['#tagIds'] = 'tagIds';
    parts.push(`(${f.tagIds.map((t, i) => `contains(#tagIds, :tag${i})`).join(' OR ')})`);
    f.tagIds.forEach((t, i) => (values[`:tag${i}`] = t));
  }
  if (f.channels) {
    names['#channel'] = 'channel';
    parts.push(`#channel IN (${f.channels.map((_, i) => `:ch${i}`).join(', ')})`);
    f.channels.forEach((c, i) => (values[`:ch${i}`] = c));
  }
  if (f.isGroup !== undefined) {
    names['#isGroup'] = 'isGroup';
    parts.push('#isGroup = :isGroup');
    values[':isGroup'] = f.isGroup;
  }
  return { expression: parts.join(' AND '), names, values };
};

export interface ContactListQuery {
  /** The list partitions to merge: one per (channel, person or group) selected. */
  kinds: { channel: ContactChannel; isGroup: boolean }[];
  /** Search form of a name prefix. */
  namePrefix?: string | undefined;
  tagIds?: number[] | undefined;
  limit: number;
  cursor?: string | undefined;
}

/**
 * Contacts by name (gsi1), merged over the selected channel × kind partitions (≤ 6), in one sort-key space
 * (`<sf name>#<pad id>`). Each stream reads at most limit + 1 items after the cursor, so a page costs
 * O(k × page); the cursor is the last emitted (or, on a short filtered page, the last safely examined) key.
 */
export const listContacts = async (companyId: number, q: ContactListQuery): Promise<Page<Contact>> => {
  const scope = `${company(companyId)}#CONTACTS#${q.kinds.map((k) => `${k.channel}:${k.isGroup ? 'G' : 'P'}`).join(',')}#${q.namePrefix ?? ''}#${(q.tagIds ?? []).join(',')}`;
  const after = q.cursor ? String((await decodeCursor(scope, q.cursor)).after) : undefined;
  const filter = contactFilter({ ...(q.tagIds ? { tagIds: q.tagIds } : {}) });
  const upper = q.namePrefix === undefined ? undefined : `${q.namePrefix}${MAX_SUFFIX}`;
  const lower = after ?? q.namePrefix;
  const inclusive = after !== undefined && upper !== undefined;
  const streams = await Promise.all(
    q.kinds.map(async (k) => {
      const sort =
        upper !== undefined
          ? { expression: '#sk BETWEEN :lower AND :upper', values: { ':lower': lower, ':upper': upper } }
          : after !== undefined
            ? { expression: '#sk > :lower', values: { ':lower': after } }
            : null;
      const params: QueryCommandInput = {
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: sort ? `#pk = :pk AND ${sort.expression}` : '#pk = :pk',
        ExpressionAttributeNames: { '#pk': 'gsi1pk', ...(sort ? { '#sk': 'gsi1sk' } : {}), ...filter.names },
        ExpressionAttributeValues: {
          ':pk': contactListPartition(companyId, k.channel, k.isGroup),
          ...sort?.values,
          ...filter.values,
        },
        FilterExpression: filter.expression,
        Limit: q.limit + 1 + (inclusive ? 1 : 0),
      };
      const out = await mapDynamoErrors(() => db().send(new QueryCommand(params)));
      return {
        items: ((out.Items ?? []) as Record<string, unknown>[]).filter((i) => i.gsi1sk !== after),
        lastExamined: out.LastEvaluatedKey ? String(out.LastEvaluatedKey.gsi1sk) : undefined,
      };
    }),
  );
  // Items beyond the smallest "last examined" of an unfinished stream may still miss that stream's items.
  const open = streams.flatMap((s) => (s.lastExamined === undefined ? [] : [s.lastExamined])).sort();
  const cutoff = open[0];
  const merged = streams
    .flatMap((s) => s.items)
    .filter((i) => cutoff === undefined || String(i.gsi1sk) <= cutoff)
    .sort((a, b) => (String(a.gsi1sk) < String(b.gsi1sk) ? -1 : 1));
  const page = merged.slice(0, q.limit);
  const full = merged.length > q.limit || (page.length === q.limit && cutoff !== undefined);
  const hasMore = full || cutoff !== undefined;
  const last = page.length === q.limit ? String(page[page.length - 1]!.gsi1sk) : cutoff;
  return {
    items: page.map(toContact),
    hasMore,
    ...(hasMore && last !== undefined ? { nextCursor: await encodeCursor(scope, { after: last }) } : {}),
  };
};

/** Contacts whose number starts with these digits (gsi2), filtered by channel, kind and tags. O(page). */
export const searchContactsByNumber = async (
  companyId: number,
  q: {
    digits: string;
    channels?: ContactChannel[];
    isGroup?: boolean;
    tagIds?: number[];
    limit: number;
    cursor?: string | undefined;
  },
): Promise<Page<Contact>> => {
  const partition = contactNumberPartition(companyId);
  const filter = contactFilter(q);
  const page = await queryPage<Record<string, unknown>>({
    scope: `${partition}#${q.digits}#${(q.channels ?? []).join(',')}#${String(q.isGroup)}#${(q.tagIds ?? []).join(',')}`,
    index: 'gsi2',
    partition,
    sortPrefix: q.digits,
    limit: q.limit,
    cursor: q.cursor,
    filter,
  });
  return { ...page, items: page.items.map(toContact) };
};

/** The company's live contacts (the counter item). */
export const countCompanyContacts = async (companyId: number): Promise<number> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: contactStatsKeys(companyId) })),
  );
  return Math.max(0, Number(out.Item?.n ?? 0));
};

/** Whether the contact has a not-closed ticket on any connection (the guards in its partition). */
export const hasOpenTicket = async (companyId: number, contactId: number): Promise<number | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :open)',
        ExpressionAttributeValues: { ':pk': contactPartition(companyId, contactId), ':open': 'OPEN#' },
        ConsistentRead: true,
        Limit: 1,
      }),
    ),
  );
  const guard = out.Items?.[0];
  return guard ? Number(guard.ticketId) : null;
};

const notFound = () => new NotFound('ERR_NO_CONTACT_FOUND', 'Contact not found');

export type ContactChanges = Partial<
  Pick<Contact, 'name' | 'number' | 'email' | 'extraInfo' | 'disableBot' | 'active' | 'acceptAudioMessage'>
>;

/**
 * Applies an edit made through the API, conditional on the contact being as the caller read it
 * (`updatedAt`). A new WhatsApp number moves the phone identity in the same transaction: the old one is
 * deleted (if still this contact's), the new one must be free — else `IdentityTaken` (ERR_DUPLICATED_CONTACT)
 * and nothing is written. Another edit in between is a 409 ERR_CONFLICT.
 */
export const updateContact = async (
  current: Contact,
  changes: ContactChanges,
  identityMove?: { from?: string | undefined; to: string },
): Promise<Contact> => {
  const { companyId, id } = current;
  const next: Contact = { ...current, ...changes, updatedAt: new Date().toISOString() };
  if (identityMove) {
    next.identities = [
      ...new Set([...current.identities.filter((i) => i !== identityMove.from), identityMove.to]),
    ].sort();
  }
  const indexKeys = contactIndexKeys(next);
  const fields: Record<string, unknown> = { ...changes, updatedAt: next.updatedAt, ...indexKeys };
  if (identityMove) fields.identities = new Set(next.identities);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':seen': current.updatedAt };
  const sets = Object.entries(fields).map(([k, v], i) => {
    names[`#f${i}`] = k;
    values[`:f${i}`] = v;
    return `#f${i} = :f${i}`;
  });
  const removes = indexKeys.gsi2pk ? '' : ' REMOVE gsi2pk, gsi2sk';
  await transactWrite(
    [
      ...(identityMove?.from
        ? [
            {
              Delete: {
                Key: identityKeys(companyId, identityMove.from),
                ConditionExpression: 'attribute_not_exists(pk) OR contactId = :id',
                ExpressionAttributeValues: { ':id': id },
              },
            },
          ]
        : []),
      ...(identityMove
        ? [
            {
              Put: {
                Item: {
                  ...identityKeys(companyId, identityMove.to),
                  type: 'CTID',
                  companyId,
                  identity: identityMove.to,
                  contactId: id,
                },
                ConditionExpression: 'attribute_not_exists(pk) OR contactId = :id',
                ExpressionAttributeValues: { ':id': id },
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
              },
            },
          ]
        : []),
      {
        Update: {
          Key: contactKeys(companyId, id),
          UpdateExpression: `SET ${sets.join(', ')}${removes}`,
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAt) AND updatedAt = :seen',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
    ],
    (failure) => {
      const reasons = failure.reasons ?? [];
      const contactFailed = reasons[reasons.length - 1] === 'ConditionalCheckFailed';
      if (contactFailed) return new Conflict('ERR_CONFLICT', 'The contact changed meanwhile, reload and try again');
      return new IdentityTaken(failedOwner(failure.item));
    },
  );
  return next;
};

/**
 * Deletes a contact through the API (D42): its identities are freed (the number may make a new contact) and
 * it leaves the lists and the count, but the item stays, marked `deletedAt`, so its closed tickets and
 * messages keep their history and their contact's name. Conditional on the contact being as read.
 */
export const deleteContact = async (
  current: Contact,
  /** More of the delete's own work (the contact's tag links and counts, D100), in the same transaction. */
  extra: readonly TransactItem[] = [],
): Promise<void> => {
  const { companyId, id } = current;
  await transactWrite(
    [
      ...extra,
      ...current.identities.map((identity) => ({
        Delete: {
          Key: identityKeys(companyId, identity),
          ConditionExpression: 'attribute_not_exists(pk) OR contactId = :id',
          ExpressionAttributeValues: { ':id': id },
        },
      })),
      {
        Update: {
          Key: contactKeys(companyId, id),
          UpdateExpression: 'SET deletedAt = :now, updatedAt = :now REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAt) AND updatedAt = :seen',
          ExpressionAttributeValues: { ':now': new Date().toISOString(), ':seen': current.updatedAt },
        },
      },
    ],
    () => new Conflict('ERR_CONFLICT', 'The contact changed meanwhile, reload and try again'),
  );
  await countContacts(companyId, -1);
};

/** A contact of the company that was not deleted, or 404 ERR_NO_CONTACT_FOUND. */
export const getLiveContact = async (companyId: number, id: number): Promise<Contact> => {
  const contact = await getContact(companyId, id);
  if (!contact || contact.deletedAt) throw notFound();
  return contact;
};

/** Contacts by id (BatchGet, ≤ 100 a call), e.g. the contacts of one page of tickets; missing ones left out. */
export const getContacts = async (companyId: number, ids: readonly number[]): Promise<Map<number, Contact>> => {
  const found = new Map<number, Contact>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 100) {
    let pending: Record<string, unknown>[] = unique.slice(i, i + 100).map((id) => contactKeys(companyId, id));
    for (let attempt = 0; pending.length > 0 && attempt < 8; attempt += 1) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      const out = await mapDynamoErrors(() =>
        db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending } } })),
      );
      for (const item of out.Responses?.[tableName()] ?? []) {
        const contact = toContact(item);
        found.set(contact.id, contact);
      }
      pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return found;
};

/**
 * The contact accepted the company's LGPD terms (decisions D93): `lgpdAcceptedAt` is set once and the first
 * acceptance's time stays. Answers the contact as stored, or null when it is gone.
 */
export const recordLgpdConsent = async (companyId: number, id: number, at: string): Promise<Contact | null> => {
  try {
    const out = await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: contactKeys(companyId, id),
          UpdateExpression: 'SET lgpdAcceptedAt = :at, updatedAt = :at',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(lgpdAcceptedAt) OR lgpdAcceptedAt = :none)',
          ExpressionAttributeValues: { ':at': at, ':none': null },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return out.Attributes ? toContact(out.Attributes) : null;
  } catch (err) {
    if (!(err instanceof Conflict)) throw err;
    // Accepted before (a redelivery, or another ticket's answer), or the contact is gone.
    return getContact(companyId, id);
  }
};
