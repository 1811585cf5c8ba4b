import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '../shared/errors';
import type { FileMediaType } from '../contracts/files';
import { db, tableName } from './client';
import { nextId } from './counter-repository';
import { createItem } from './create-items';
import { mapDynamoErrors } from './errors';
import { company, pad, searchForm } from './keys';
import { queryPage, type Page } from './query-page';
import { queueKeys } from './queue-repository';
import { MAX_TRANSACTION_ITEMS, transactWrite, type TransactItem } from './transactions';

/**
 * File list (administration spec §3 "File list"; docs/data-model.md §2.27; decisions D88):
 * `pk = C#<c>#FILES, sk = FILES#<pad id>`, listed by name on gsi1 `C#<c>#FILES` → `<searchForm name>#<pad id>`.
 * The options live inside the item (at most FILE_LIST_MAX_OPTIONS, a few hundred bytes each), so a list is
 * one read and every change one conditional write on `version`. An option's file is an S3 object under
 * `c/<c>/files/<listId>/`; the item holds its key. Option ids count up per list (`lastOptionId`) and are
 * never reused, so an upload aimed at a removed option can never land on a newer one.
 */
export interface FileListOption {
  id: number;
  name: string;
  /** The uploaded file's media key, or null before an upload. */
  mediaKey: string | null;
  fileName: string | null;
  mediaType: FileMediaType | null;
  mimetype: string | null;
}

export interface FileList {
  id: number;
  companyId: number;
  name: string;
  message: string;
  options: FileListOption[];
  lastOptionId: number;
  userId: number | null;
  /** Bumped by every write; writes are conditional on the version read. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export const fileListPartition = (companyId: number): string => `${company(companyId)}#FILES`;
export const fileListKeys = (companyId: number, id: number) => ({
  pk: fileListPartition(companyId),
  sk: `FILES#${pad(id)}`,
});
const indexKeys = (f: Pick<FileList, 'companyId' | 'id' | 'name'>) => ({
  gsi1pk: fileListPartition(f.companyId),
  gsi1sk: `${searchForm(f.name)}#${pad(f.id)}`,
});
const itemOf = (f: FileList) => ({ ...fileListKeys(f.companyId, f.id), ...indexKeys(f), type: 'FILES', ...f });

const toFileList = (item: Record<string, unknown>): FileList => {
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, type: _t, ...rest } = item;
  return rest as unknown as FileList;
};

export const fileListNotFound = () => new NotFound('ERR_NO_FILE_FOUND', 'File list not found');
const changedMeanwhile = () => new Conflict('ERR_CONFLICT', 'The file list changed meanwhile, reload it');

export type NewFileList = Pick<FileList, 'name' | 'message' | 'userId'> & { optionNames: readonly string[] };

export const createFileList = async (companyId: number, input: NewFileList): Promise<FileList> => {
  const id = await nextId(companyId, 'fileList');
  const now = new Date().toISOString();
  const list: FileList = {
    id,
    companyId,
    name: input.name,
    message: input.message,
    options: input.optionNames.map((name, i) => ({
      id: i + 1,
      name,
      mediaKey: null,
      fileName: null,
      mediaType: null,
      mimetype: null,
    })),
    lastOptionId: input.optionNames.length,
    userId: input.userId,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await createItem(itemOf(list));
  return list;
};

export const getFileList = async (companyId: number, id: number): Promise<FileList | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: fileListKeys(companyId, id), ConsistentRead: true })),
  );
  return out.Item ? toFileList(out.Item) : null;
};

export type FileListChanges = Partial<Pick<FileList, 'name' | 'message' | 'options' | 'lastOptionId' | 'userId'>>;

/**
 * Writes the list with the changes, conditional on it still being the version the caller read: the
 * decision the service made on that read (which files stay, which go) holds when the write lands.
 * 409 ERR_CONFLICT otherwise, which the caller's CHANGED_MEANWHILE retry reads again.
 */
export const saveFileList = async (current: FileList, changes: FileListChanges): Promise<FileList> => {
  const next: FileList = {
    ...current,
    ...changes,
    version: current.version + 1,
    updatedAt: new Date().toISOString(),
  };
  await mapDynamoErrors(
    () =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: itemOf(next),
          ConditionExpression: 'attribute_exists(pk) AND version = :seen',
          ExpressionAttributeValues: { ':seen': current.version },
        }),
      ),
    changedMeanwhile,
  );
  return next;
};

/** Most queues a delete checks in its transaction (the rest of DynamoDB's 100 items is the list itself). */
export const MAX_CHECKED_QUEUES = MAX_TRANSACTION_ITEMS - 1;

/**
 * Deletes the list as read, in one transaction with a check that each of `queues` is still the version the
 * caller read (and found not using the list, as `fileListId` or in its chatbot tree) — so a queue changed
 * between the caller's look at the queues and this write stops the delete (decisions D88, D89). Any failed condition is a plain 409 ERR_CONFLICT: the caller reads
 * again and then sees who uses it.
 */
export const deleteFileList = async (
  current: FileList,
  queues: readonly { id: number; version: number }[],
): Promise<void> => {
  if (queues.length > MAX_CHECKED_QUEUES) throw new Error(`at most ${MAX_CHECKED_QUEUES} queues can be checked`);
  const items: TransactItem[] = [
    {
      Delete: {
        Key: fileListKeys(current.companyId, current.id),
        ConditionExpression: 'attribute_exists(pk) AND version = :seen',
        ExpressionAttributeValues: { ':seen': current.version },
      },
    },
    ...queues.map((queue): TransactItem => ({
      ConditionCheck: {
        Key: queueKeys(current.companyId, queue.id),
        ConditionExpression: 'attribute_not_exists(pk) OR version = :v OR attribute_not_exists(version)',
        ExpressionAttributeValues: { ':v': queue.version },
      },
    })),
  ];
  await transactWrite(items, changedMeanwhile);
};

/** A page of the company's file lists by name, optionally by name prefix (decisions D5). O(page). */
export const listFileLists = async (
  companyId: number,
  q: { search?: string | undefined; limit: number; cursor?: string | undefined },
): Promise<Page<FileList>> => {
  const partition = fileListPartition(companyId);
  const prefix = q.search ? searchForm(q.search) : '';
  const page = await queryPage<Record<string, unknown>>({
    scope: `${partition}#${prefix}`,
    index: 'gsi1',
    partition,
    sortPrefix: prefix || undefined,
    limit: q.limit,
    cursor: q.cursor,
  });
  return { ...page, items: page.items.map(toFileList) };
};
