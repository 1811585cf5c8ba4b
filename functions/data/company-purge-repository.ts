import { DeleteObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../shared/config';
import { batchWriteAll } from './batch-write';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';
import { company } from './keys';
import { s3 } from './media-store';

/**
 * What deleting a company removes (decisions D156): every item whose partition key is `C#<c>` or starts
 * with `C#<c>#` (all tenant data, with its index entries), and every platform item that points at the
 * company (`companyId = <c>`: its name guard, its users' e-mail guards, socket lookups, connection-id,
 * Meta, API-key and payment pointers). Found by a paged, parallel-segment **Scan** — the one Scan of the
 * product, run only by the purge job, never on a request path: it finds every kind of item by
 * construction, including kinds added after this job was written, where a walk through each area's
 * partitions would silently leave whatever it forgot.
 */
export interface PurgeCursor {
  segment: number;
  startKey?: Record<string, unknown>;
}

/** Segments of the parallel Scan: each pass works on one, in order. */
export const PURGE_SEGMENTS = 4;

/** One page of the company's items in `cursor`'s segment: their keys and where the next page starts. */
export const scanCompanyItems = async (
  companyId: number,
  cursor: PurgeCursor,
  limit = 1000,
): Promise<{ keys: { pk: string; sk: string }[]; next?: Record<string, unknown> }> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new ScanCommand({
        TableName: tableName(),
        Segment: cursor.segment,
        TotalSegments: PURGE_SEGMENTS,
        Limit: limit,
        ProjectionExpression: 'pk, sk',
        FilterExpression: 'pk = :c OR begins_with(pk, :prefix) OR companyId = :id',
        ExpressionAttributeValues: { ':c': company(companyId), ':prefix': `${company(companyId)}#`, ':id': companyId },
        ...(cursor.startKey ? { ExclusiveStartKey: cursor.startKey } : {}),
      }),
    ),
  );
  return {
    keys: (out.Items ?? []).map((i) => ({ pk: String(i.pk), sk: String(i.sk) })),
    ...(out.LastEvaluatedKey ? { next: out.LastEvaluatedKey } : {}),
  };
};

export const deleteItems = (keys: readonly { pk: string; sk: string }[]): Promise<void> =>
  batchWriteAll(keys.map((Key) => ({ DeleteRequest: { Key } })));

/** The company's media prefix (`c/<c>/`, docs/data-model.md §1.8). */
export const companyMediaPrefix = (companyId: number): string => `c/${companyId}/`;

const mediaBucket = (): string => {
  const name = config().MEDIA_BUCKET;
  if (!name) throw new Error('MEDIA_BUCKET is not configured');
  return name;
};

/** One page of the company's media keys and sizes (1000 at most). */
export const listCompanyMedia = async (
  companyId: number,
  continuationToken?: string,
): Promise<{ objects: { key: string; size: number }[]; next?: string }> => {
  const out = await s3().send(
    new ListObjectsV2Command({
      Bucket: mediaBucket(),
      Prefix: companyMediaPrefix(companyId),
      ...(continuationToken ? { ContinuationToken: continuationToken } : {}),
    }),
  );
  return {
    objects: (out.Contents ?? []).map((o) => ({ key: String(o.Key), size: Number(o.Size ?? 0) })),
    ...(out.IsTruncated && out.NextContinuationToken ? { next: out.NextContinuationToken } : {}),
  };
};

/** Deletes one page of the company's media; answers how many went and whether more remain. */
export const deleteCompanyMediaPage = async (companyId: number): Promise<{ deleted: number; more: boolean }> => {
  const page = await listCompanyMedia(companyId);
  for (let i = 0; i < page.objects.length; i += 20) {
    await Promise.all(
      page.objects
        .slice(i, i + 20)
        .map((o) => s3().send(new DeleteObjectCommand({ Bucket: mediaBucket(), Key: o.key }))),
    );
  }
  return { deleted: page.objects.length, more: page.next !== undefined };
};
