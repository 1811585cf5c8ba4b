import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ExportFormat, ExportKind, ExportStatus } from '../contracts/exports';
import { EXPORT_KEEP_SECONDS } from '../contracts/exports';
import type { AuthContext } from '../shared/auth-context';
import { Conflict } from '../shared/errors';
import { db, tableName } from './client';
import { consistentGet } from './consistent-reads';
import { mapDynamoErrors } from './errors';
import { company } from './keys';

/**
 * A spreadsheet export (docs/data-model.md §2.34 "Export"; decisions D127): `pk = C#<c>#EXPORT#<id>,
 * sk = EXPORT`, one item per request, gone after a day (ttl). The file is in the exports bucket at
 * `c/<c>/exports/<id>/<fileName>`. Each delivery of the job claims the export with a new `runner` token
 * (a conditional write), so a stale delivery's progress and finish are refused once a newer one started:
 * whoever finishes last under its own token is the one file.
 */
export interface ExportItem {
  id: string;
  companyId: number;
  userId: number;
  kind: ExportKind;
  format: ExportFormat;
  fileName: string;
  key: string;
  /** The filters of the screen it came from, as validated when it was asked for. */
  filters: Record<string, unknown>;
  /** Who asked, as the job must see them (permissions and number masking are theirs). */
  auth: Pick<AuthContext, 'companyId' | 'userId' | 'profile' | 'super' | 'userFlags' | 'planFlags'>;
  status: ExportStatus;
  processed: number;
  total: number | null;
  /** Deliveries that claimed it so far. */
  attempts: number;
  runner?: string;
  error?: string;
  size?: number;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
}

export const exportKeys = (companyId: number, id: string) => ({
  pk: `${company(companyId)}#EXPORT#${id}`,
  sk: 'EXPORT',
});

const toExport = (item: Record<string, unknown>): ExportItem => {
  const { pk: _pk, sk: _sk, type: _t, ttl: _ttl, ...rest } = item;
  return rest as unknown as ExportItem;
};

export const putExport = async (
  input: Pick<ExportItem, 'id' | 'companyId' | 'userId' | 'kind' | 'format' | 'fileName' | 'key' | 'filters' | 'auth'>,
): Promise<ExportItem> => {
  const now = new Date().toISOString();
  const item: ExportItem = {
    ...input,
    status: 'queued',
    processed: 0,
    total: null,
    attempts: 0,
    createdAt: now,
    updatedAt: now,
  };
  await mapDynamoErrors(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...exportKeys(input.companyId, input.id),
          type: 'EXPORT',
          ...item,
          ttl: Math.floor(Date.now() / 1000) + EXPORT_KEEP_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
  return item;
};

export const getExport = async (companyId: number, id: string): Promise<ExportItem | null> => {
  const item = await consistentGet(exportKeys(companyId, id));
  return item ? toExport(item) : null;
};

/** Thrown when a newer delivery took the export over (or it already ended): this delivery stops. */
export class ExportOvertaken extends Error {
  constructor() {
    super('The export was taken over by another delivery or has ended');
  }
}

const update = async (
  current: Pick<ExportItem, 'companyId' | 'id'>,
  set: Record<string, unknown>,
  condition: { expression: string; values: Record<string, unknown> },
  add?: { attempts: number },
): Promise<ExportItem> => {
  const names: Record<string, string> = {
    ...(condition.expression.includes('#st') ? { '#st': 'status' } : {}),
    ...(condition.expression.includes('#runner') ? { '#runner': 'runner' } : {}),
  };
  const values: Record<string, unknown> = { ...condition.values };
  const sets = Object.entries({ ...set, updatedAt: new Date().toISOString() }).map(([k, v], i) => {
    names[`#s${i}`] = k;
    values[`:s${i}`] = v;
    return `#s${i} = :s${i}`;
  });
  if (add) values[':attempts'] = add.attempts;
  const out = await mapDynamoErrors(
    () =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: exportKeys(current.companyId, current.id),
          UpdateExpression: `SET ${sets.join(', ')}${add ? ' ADD attempts :attempts' : ''}`,
          ConditionExpression: `attribute_exists(pk) AND (${condition.expression})`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      ),
    () => new Conflict('ERR_CONFLICT', 'The export changed meanwhile'),
  );
  return toExport(out.Attributes!);
};

const mine = (runner: string) => ({
  expression: '#st = :running AND #runner = :runner',
  values: { ':running': 'running', ':runner': runner },
});

const orOvertaken = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (err) {
    if (err instanceof Conflict) throw new ExportOvertaken();
    throw err;
  }
};

/** A delivery starts (over): its token, zero rows, the total if known; refused once the export ended. */
export const claimExport = (current: ExportItem, runner: string, total: number | null): Promise<ExportItem> =>
  orOvertaken(() =>
    update(
      current,
      { status: 'running', runner, processed: 0, total },
      { expression: '#st IN (:queued, :running)', values: { ':queued': 'queued', ':running': 'running' } },
      { attempts: 1 },
    ),
  );

/** Rows written so far, only while this delivery still holds the export. */
export const recordExportProgress = (current: ExportItem, runner: string, processed: number): Promise<ExportItem> =>
  orOvertaken(() => update(current, { processed }, mine(runner)));

/** The file is complete in S3 under this delivery's token: done, with the row count and size. */
export const finishExport = (
  current: ExportItem,
  runner: string,
  result: { processed: number; size: number },
): Promise<ExportItem> =>
  orOvertaken(() =>
    update(
      current,
      {
        status: 'done',
        processed: result.processed,
        total: result.processed,
        size: result.size,
        finishedAt: new Date().toISOString(),
      },
      mine(runner),
    ),
  );

/** The last delivery gave up: failed, for the user to ask again. */
export const failExport = (current: ExportItem, error: string): Promise<ExportItem> =>
  orOvertaken(() =>
    update(
      current,
      { status: 'failed', error, finishedAt: new Date().toISOString() },
      { expression: '#st IN (:queued, :running)', values: { ':queued': 'queued', ':running': 'running' } },
    ),
  );
