import { PutCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../shared/errors';
import { BUSY, withRetry } from '../shared/retry';
import { contactCountUpdate } from './contact-repository';
import { contactListCountMove, contactListNotFound } from './contact-list-repository';
import { leadUpdate } from './ticket-stats';
import { db, tableName } from './client';
import { consistentGet } from './consistent-reads';
import { mapDynamoErrors } from './errors';
import { company } from './keys';
import { transactWrite } from './transactions';

/**
 * A spreadsheet import of contacts (core spec §4, §5; docs/data-model.md §2.12 "Contact import"; decisions
 * D104, D105): `pk = C#<c>#CTIMPORT#<id>, sk = IMPORT`, one item per upload, kept 30 days (ttl). The file
 * itself is in the media bucket at `c/<c>/imports/<id>/<file>`. The job moves `offset` (data rows done) and
 * the counts together after each chunk, conditional on the offset it started from, so a redelivered or
 * doubled message never counts a chunk twice and a crash resumes at the last chunk written.
 */
export type ImportTarget = 'name' | 'number' | 'email';
export type ContactImportStatus = 'uploaded' | 'queued' | 'running' | 'done' | 'failed';

export interface ContactImport {
  id: string;
  companyId: number;
  userId: number;
  fileName: string;
  key: string;
  size: number;
  status: ContactImportStatus;
  /** What each column of the sheet is: a contact field or nothing (null). */
  columns: (ImportTarget | null)[];
  /** Data rows (0 = the row under the header) the user left out. */
  excludedRows: number[];
  /** Data rows handled so far (imported, merged, ignored or left out). */
  offset: number;
  /** Data rows in the file; known once the job has read it through (null before). */
  total: number | null;
  created: number;
  merged: number;
  ignored: number;
  error?: string;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
  /**
   * The import's target (decisions D122): absent, the company's contacts; set, the items of this contact
   * list (`POST /contact-lists/{id}/upload`), where `merged` counts the numbers already in the list.
   */
  contactListId?: number;
  /** Where the rows come from (decisions D148): absent for a spreadsheet. */
  source?: 'contacts' | 'chats';
  /** The connection that reads the phone (D148) or validates the numbers (D149). */
  whatsappId?: number;
  /** Only numbers WhatsApp knows become contacts (decisions D149). */
  validateContact?: boolean;
  /** Rows left out because WhatsApp does not know their number (absent on older imports: 0). */
  invalid?: number;
}

const KEEP_SECONDS = 30 * 86_400;

export const contactImportKeys = (companyId: number, id: string) => ({
  pk: `${company(companyId)}#CTIMPORT#${id}`,
  sk: 'IMPORT',
});

const toImport = (item: Record<string, unknown>): ContactImport => {
  const { pk: _pk, sk: _sk, type: _t, ttl: _ttl, ...rest } = item;
  return rest as unknown as ContactImport;
};

export const putContactImport = async (
  input: Pick<
    ContactImport,
    'id' | 'companyId' | 'userId' | 'fileName' | 'key' | 'size' | 'contactListId' | 'source' | 'whatsappId'
  >,
): Promise<ContactImport> => {
  const now = new Date().toISOString();
  const item: ContactImport = {
    ...input,
    status: 'uploaded',
    columns: [],
    excludedRows: [],
    offset: 0,
    total: null,
    created: 0,
    merged: 0,
    ignored: 0,
    createdAt: now,
    updatedAt: now,
  };
  await mapDynamoErrors(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...contactImportKeys(input.companyId, input.id),
          type: 'CTIMPORT',
          ...item,
          ttl: Math.floor(Date.now() / 1000) + KEEP_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
  return item;
};

export const getContactImport = async (companyId: number, id: string): Promise<ContactImport | null> => {
  const item = await consistentGet(contactImportKeys(companyId, id));
  return item ? toImport(item) : null;
};

const updateInput = (
  companyId: number,
  id: string,
  set: Record<string, unknown>,
  condition: { expression: string; values?: Record<string, unknown> },
  add: Record<string, number> = {},
): Omit<UpdateCommandInput, 'TableName'> & {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
} => {
  const names: Record<string, string> = {
    ...(condition.expression.includes('#st') ? { '#st': 'status' } : {}),
    ...(condition.expression.includes('#o') ? { '#o': 'offset' } : {}),
  };
  const values: Record<string, unknown> = { ...condition.values };
  const sets = Object.entries({ ...set, updatedAt: new Date().toISOString() }).map(([k, v], i) => {
    names[`#s${i}`] = k;
    values[`:s${i}`] = v;
    return `#s${i} = :s${i}`;
  });
  const adds = Object.entries(add).map(([k, v], i) => {
    names[`#a${i}`] = k;
    values[`:a${i}`] = v;
    return `#a${i} :a${i}`;
  });
  return {
    Key: contactImportKeys(companyId, id),
    UpdateExpression: `SET ${sets.join(', ')}${adds.length ? ` ADD ${adds.join(', ')}` : ''}`,
    ConditionExpression: `attribute_exists(pk) AND (${condition.expression})`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
};

const changedMeanwhile = () => new Conflict('ERR_CONFLICT', 'The import changed meanwhile');

const update = async (
  companyId: number,
  id: string,
  set: Record<string, unknown>,
  condition: { expression: string; values?: Record<string, unknown> },
  add: Record<string, number> = {},
): Promise<ContactImport> => {
  const out = await mapDynamoErrors(
    () =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          ...updateInput(companyId, id, set, condition, add),
          ReturnValues: 'ALL_NEW',
        }),
      ),
    changedMeanwhile,
  );
  return toImport(out.Attributes!);
};

/** The mapping chosen: only once, from `uploaded` (a second start is a 409). */
export const queueContactImport = (
  current: ContactImport,
  columns: (ImportTarget | null)[],
  excludedRows: number[],
  validation: { validateContact: boolean; whatsappId?: number } = { validateContact: false },
): Promise<ContactImport> =>
  update(
    current.companyId,
    current.id,
    { status: 'queued', columns, excludedRows, ...validation },
    { expression: '#st = :uploaded', values: { ':uploaded': 'uploaded' } },
  ).catch((err: unknown) => {
    throw err instanceof Conflict ? new Conflict('ERR_IMPORT_STARTED', 'This import has already started') : err;
  });

/** The job read the file through: its data row count, and the import is running. */
export const markContactImportRunning = (current: ContactImport, total: number): Promise<ContactImport> =>
  update(
    current.companyId,
    current.id,
    { status: 'running', total },
    { expression: '#st IN (:queued, :running)', values: { ':queued': 'queued', ':running': 'running' } },
  );

/**
 * One chunk done: the offset moves from `from` to `to` and the counts grow, all at once; a `Conflict` when
 * another delivery moved the offset first (that one counted the chunk).
 */
export const recordContactImportChunk = async (
  current: ContactImport,
  from: number,
  to: number,
  counts: { created: number; merged: number; ignored: number; invalid?: number },
  done: boolean,
): Promise<ContactImport> => {
  const set = { offset: to, ...(done ? { status: 'done', finishedAt: new Date().toISOString() } : {}) };
  const condition = { expression: '#o = :from AND #st = :running', values: { ':from': from, ':running': 'running' } };
  if (counts.created === 0) return update(current.companyId, current.id, set, condition, counts);
  // The chunk's new contacts are the day's leads and the company's count once, with the offset (D104): the
  // contacts were made uncounted, so a replayed chunk neither loses nor doubles them.
  const lead = await leadUpdate(current.companyId, new Date().toISOString(), counts.created);
  // The counters are hot items: a transaction conflict with another writer is retried here.
  await withRetry(BUSY, () =>
    transactWrite(
      [
        { Update: updateInput(current.companyId, current.id, set, condition, counts) },
        lead,
        contactCountUpdate(current.companyId, counts.created),
      ],
      () => changedMeanwhile(),
    ),
  );
  return (await getContactImport(current.companyId, current.id))!;
};

/**
 * A contact list import's chunk (decisions D122): as `recordContactImportChunk`, and the list's
 * `contactsCount` grows by the chunk's new items in the same transaction, so the count is exact however
 * often the chunk is replayed. A list deleted meanwhile is a NotFound (the import then fails).
 */
export const recordContactListImportChunk = async (
  current: ContactImport,
  from: number,
  to: number,
  counts: { created: number; merged: number; ignored: number },
  done: boolean,
): Promise<ContactImport> => {
  const listId = current.contactListId!;
  await transactWrite(
    [
      {
        Update: updateInput(
          current.companyId,
          current.id,
          { offset: to, ...(done ? { status: 'done', finishedAt: new Date().toISOString() } : {}) },
          { expression: '#o = :from AND #st = :running', values: { ':from': from, ':running': 'running' } },
          counts,
        ),
      },
      contactListCountMove(current.companyId, listId, counts.created),
    ],
    ({ reasons }) => (reasons?.[0] === 'ConditionalCheckFailed' ? changedMeanwhile() : contactListNotFound()),
  );
  return (await getContactImport(current.companyId, current.id))!;
};

/** The file could not be read (or the import cannot go on): its reason, for the user. */
export const failContactImport = (current: ContactImport, error: string): Promise<ContactImport> =>
  update(
    current.companyId,
    current.id,
    { status: 'failed', error, finishedAt: new Date().toISOString() },
    {
      expression: '#st IN (:uploaded, :queued, :running)',
      values: { ':uploaded': 'uploaded', ':queued': 'queued', ':running': 'running' },
    },
  );
