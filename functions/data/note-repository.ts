import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { Forbidden } from '../shared/errors';
import { db, tableName } from './client';
import { contactPartition } from './contact-repository';
import { mapDynamoErrors } from './errors';
import { queryAll } from './query-page';
import { newUlid } from './ulids';

/**
 * Ticket note (docs/data-model.md §2.16; decisions D56): `pk = C#<c>#CT#<pad contactId>, sk = NOTE#<ulid>`
 * (userId, ticketId, note). Notes live with the contact, so the drawer can show them across tickets; the
 * ULID's time is the note's, so the partition's `NOTE#` range is chronological. The wire id is
 * `<contactId>-<ulid>`: a single Get finds a note from its id alone, with the company from the token.
 */
export interface TicketNote {
  ulid: string;
  companyId: number;
  contactId: number;
  ticketId: number;
  userId: number;
  note: string;
  createdAt: string;
}

export const noteKeys = (companyId: number, contactId: number, ulid: string) => ({
  pk: contactPartition(companyId, contactId),
  sk: `NOTE#${ulid}`,
});

export const noteWireId = (n: Pick<TicketNote, 'contactId' | 'ulid'>): string => `${n.contactId}-${n.ulid}`;

/** `<contactId>-<ulid>` → its parts, or null when the text is not such an id. */
export const parseNoteWireId = (id: string): { contactId: number; ulid: string } | null => {
  const match = /^(\d{1,10})-([0-9A-HJKMNP-TV-Z]{26})$/.exec(id);
  if (!match) return null;
  const contactId = Number(match[1]);
  return contactId > 0 ? { contactId, ulid: match[2]! } : null;
};

const toNote = (item: Record<string, unknown>): TicketNote => ({
  ulid: String(item.sk).slice('NOTE#'.length),
  companyId: Number(item.companyId),
  contactId: Number(item.contactId),
  ticketId: Number(item.ticketId),
  userId: Number(item.userId),
  note: String(item.note),
  createdAt: String(item.createdAt),
});

export const createNote = async (
  companyId: number,
  input: Pick<TicketNote, 'contactId' | 'ticketId' | 'userId' | 'note'>,
  now = new Date(),
): Promise<TicketNote> => {
  const note: TicketNote = { ...input, companyId, ulid: newUlid(now.getTime()), createdAt: now.toISOString() };
  const { ulid: _u, ...attributes } = note;
  await mapDynamoErrors(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...noteKeys(companyId, note.contactId, note.ulid), type: 'TICKET_NOTE', ...attributes },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
  return note;
};

export const getNote = async (companyId: number, contactId: number, ulid: string): Promise<TicketNote | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: noteKeys(companyId, contactId, ulid) })),
  );
  return out.Item ? toNote(out.Item) : null;
};

/**
 * Deletes a note; unless `anyAuthor`, only while it is `userId`'s (`ConditionExpression`, so the rule holds
 * even against a concurrent change): otherwise 403 ERR_NO_PERMISSION and nothing is deleted.
 */
export const deleteNote = async (note: TicketNote, userId: number, anyAuthor: boolean): Promise<void> => {
  await mapDynamoErrors(
    () =>
      db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: noteKeys(note.companyId, note.contactId, note.ulid),
          ConditionExpression: anyAuthor ? 'attribute_exists(pk)' : 'attribute_exists(pk) AND userId = :me',
          ...(anyAuthor ? {} : { ExpressionAttributeValues: { ':me': userId } }),
        }),
      ),
    () => new Forbidden('ERR_NO_PERMISSION', 'Only the author or an admin may delete a note'),
  );
};

/** The notes of one ticket, newest first (the contact's `NOTE#` range filtered by ticket). */
export const listTicketNotes = async (companyId: number, contactId: number, ticketId: number): Promise<TicketNote[]> =>
  (
    await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :note)',
      FilterExpression: 'ticketId = :ticket',
      ExpressionAttributeValues: {
        ':pk': contactPartition(companyId, contactId),
        ':note': 'NOTE#',
        ':ticket': ticketId,
      },
      ScanIndexForward: false,
      ConsistentRead: true,
    })
  ).map(toNote);
