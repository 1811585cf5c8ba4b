import { BatchGetCommand, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../core/errors';
import { db, tableName } from './client';
import { nextId } from './counter-repository';
import { mapDynamoErrors } from './errors';
import { company, pad, searchForm } from './keys';

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
 */
export type ContactChannel = 'whatsapp' | 'instagram' | 'facebook';

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
  createdAt: string;
  updatedAt: string;
}

export const contactPartition = (companyId: number, id: number): string => `${company(companyId)}#CT#${pad(id)}`;
export const contactKeys = (companyId: number, id: number) => ({ pk: contactPartition(companyId, id), sk: 'CONTACT' });
export const contactIndexKeys = (
  c: Pick<Contact, 'companyId' | 'id' | 'channel' | 'isGroup' | 'name'>,
): { gsi1pk: string; gsi1sk: string } => ({
  gsi1pk: `${company(c.companyId)}#CONTACT#${c.channel}#${c.isGroup ? 'G' : 'P'}`,
  gsi1sk: `${searchForm(c.name)}#${pad(c.id)}`,
});
export const identityKeys = (companyId: number, identity: string) => ({
  pk: `${company(companyId)}#CTID#${identity}`,
  sk: 'CTID',
});

const toContact = (item: Record<string, unknown>): Contact => {
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, type: _t, identities, ...rest } = item;
  return {
    ...(rest as unknown as Contact),
    identities:
      identities instanceof Set || Array.isArray(identities)
        ? [...(identities as Iterable<unknown>)].map(String).sort()
        : [],
  };
};

/** The identity is another contact's (`contactId` names it), or the contact to update is gone. */
export class IdentityTaken extends Conflict {
  constructor(readonly contactId: number | null) {
    super('ERR_DUPLICATED_CONTACT', 'Contact with this number exists', contactId === null ? undefined : { contactId });
  }
}

export const getContact = async (companyId: number, id: number): Promise<Contact | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: contactKeys(companyId, id), ConsistentRead: true })),
  );
  return out.Item ? toContact(out.Item) : null;
};

/** Which contact each identity names (consistent reads: a contact created a moment ago is found). */
export const findContactIdsByIdentities = async (
  companyId: number,
  identities: readonly string[],
): Promise<Map<string, number>> => {
  const found = new Map<string, number>();
  if (identities.length === 0) return found;
  let pending: Record<string, unknown>[] = [...new Set(identities)].map((i) => identityKeys(companyId, i));
  for (let attempt = 0; pending.length > 0 && attempt < 8; attempt += 1) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
    const out = await mapDynamoErrors(() =>
      db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } })),
    );
    for (const item of out.Responses?.[tableName()] ?? []) {
      found.set(String(item.identity), Number(item.contactId));
    }
    pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
  }
  return found;
};

export type NewContact = Pick<Contact, 'name' | 'number' | 'isGroup' | 'channel' | 'whatsappId'> &
  Partial<Pick<Contact, 'lid' | 'urlPicture'>>;

/**
 * Creates a contact with its identities, all or nothing. A taken identity (another writer created the
 * person a moment ago) is `IdentityTaken` naming that contact; the counter id is then a harmless gap.
 */
export const createContact = async (
  companyId: number,
  input: NewContact,
  identities: readonly string[],
): Promise<Contact> => {
  const id = await nextId(companyId, 'contact');
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
    identities: [...new Set(identities)].sort(),
    id,
    companyId,
    createdAt: now,
    updatedAt: now,
  };
  await mapDynamoErrors(
    () =>
      db().send(
        new TransactWriteCommand({
          TransactItems: [
            ...contact.identities.map((identity) => ({
              Put: {
                TableName: tableName(),
                Item: { ...identityKeys(companyId, identity), type: 'CTID', companyId, identity, contactId: id },
                ConditionExpression: 'attribute_not_exists(pk)',
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
              },
            })),
            {
              Put: {
                TableName: tableName(),
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
          ],
        }),
      ),
    (failure) => new IdentityTaken(failure.item?.contactId === undefined ? null : Number(failure.item.contactId)),
  );
  return contact;
};

/**
 * Gives a contact one more identity (its LID became known, or its phone): the identity item and the
 * contact's set change together. `IdentityTaken` when the identity already names another contact (with
 * its id) or the contact is gone (null).
 */
export const attachIdentity = async (companyId: number, contactId: number, identity: string): Promise<void> => {
  await mapDynamoErrors(
    () =>
      db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: tableName(),
                Item: { ...identityKeys(companyId, identity), type: 'CTID', companyId, identity, contactId },
                ConditionExpression: 'attribute_not_exists(pk) OR contactId = :id',
                ExpressionAttributeValues: { ':id': contactId },
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
            {
              Update: {
                TableName: tableName(),
                Key: contactKeys(companyId, contactId),
                UpdateExpression: 'ADD identities :identity',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':identity': new Set([identity]) },
              },
            },
          ],
        }),
      ),
    (failure) =>
      new IdentityTaken(
        failure.reasons?.[0] === 'ConditionalCheckFailed' && failure.item?.contactId !== undefined
          ? Number(failure.item.contactId)
          : null,
      ),
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
  await mapDynamoErrors(
    () =>
      db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: tableName(),
                Item: { ...identityKeys(companyId, identity), type: 'CTID', companyId, identity, contactId: toId },
                ConditionExpression: 'contactId = :from',
                ExpressionAttributeValues: { ':from': fromId },
              },
            },
            {
              Update: {
                TableName: tableName(),
                Key: contactKeys(companyId, toId),
                UpdateExpression: 'ADD identities :identity',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':identity': new Set([identity]) },
              },
            },
            {
              Update: {
                TableName: tableName(),
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
        }),
      ),
    () => new IdentityTaken(null),
  );
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
  if (changes.name !== undefined) Object.assign(fields, contactIndexKeys(next));
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
          ConditionExpression: 'attribute_exists(pk) AND #seen = :seen',
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
