import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { contactPartition } from './contact-repository';
import { mapDynamoErrors } from './errors';
import { company } from './keys';

/**
 * The tickets report's walk (data-model §3.6; decisions D110): TRACKING items created within [from, to)
 * (ISO instants), newest first, from the creation index (gsi5 `C#<c>#TCREATED`) or, for one contact, the
 * contact's tickets (gsi3 `C#<c>#CT#<contactId>#T`), with the filters as a FilterExpression. It skips
 * `skip` matches, keeps `take`, and goes on counting matches up to `countUpTo` (0: stop at the page).
 */
export interface ReportFilter {
  statuses?: string[] | undefined;
  queueIds?: number[] | undefined;
  userIds?: number[] | undefined;
  whatsappId?: number | undefined;
  contactIds?: number[] | undefined;
  ticketId?: number | undefined;
  onlyRated?: boolean | undefined;
}

export interface ReportWalk {
  companyId: number;
  from: string;
  to: string;
  contactId?: number | undefined;
  filter: ReportFilter;
  skip: number;
  take: number;
  countUpTo: number;
}

const filterExpression = (f: ReportFilter) => {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const inList = (attr: string, name: string, list: readonly unknown[]) => {
    names[`#${name}`] = attr;
    parts.push(`#${name} IN (${list.map((_, i) => `:${name}${i}`).join(', ')})`);
    list.forEach((v, i) => (values[`:${name}${i}`] = v));
  };
  if (f.statuses?.length) inList('status', 'st', f.statuses);
  if (f.queueIds?.length) inList('queueId', 'q', f.queueIds);
  if (f.userIds?.length) inList('userId', 'u', f.userIds);
  if (f.contactIds?.length) inList('contactId', 'ct', f.contactIds);
  if (f.whatsappId !== undefined) inList('whatsappId', 'w', [f.whatsappId]);
  if (f.ticketId !== undefined) inList('ticketId', 't', [f.ticketId]);
  if (f.onlyRated) parts.push('attribute_exists(rating)');
  return parts.length === 0 ? null : { expression: parts.join(' AND '), names, values };
};

/** One page of a report walk's Query: the range's TRACKING items newest first, with the walk's filter. */
const queryReportPage = (
  w: Omit<ReportWalk, 'skip' | 'take' | 'countUpTo'>,
  limit: number,
  startKey: Record<string, unknown> | undefined,
) => {
  const filter = filterExpression(w.filter);
  const index = w.contactId === undefined ? 'gsi5' : 'gsi3';
  const pk =
    w.contactId === undefined ? `${company(w.companyId)}#TCREATED` : `${contactPartition(w.companyId, w.contactId)}#T`;
  return mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index,
        KeyConditionExpression: `${index}pk = :pk AND ${index}sk BETWEEN :from AND :to`,
        ExpressionAttributeValues: { ':pk': pk, ':from': w.from, ':to': w.to, ...filter?.values },
        ...(filter
          ? {
              FilterExpression: filter.expression,
              ...(Object.keys(filter.names).length ? { ExpressionAttributeNames: filter.names } : {}),
            }
          : {}),
        ScanIndexForward: false,
        Limit: limit,
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    ),
  );
};

export const walkReport = async (
  w: ReportWalk,
): Promise<{ rows: Record<string, unknown>[]; matched: number; hasMore: boolean; complete: boolean }> => {
  const rows: Record<string, unknown>[] = [];
  let matched = 0;
  let startKey: Record<string, unknown> | undefined;
  const wanted = Math.max(w.skip + w.take + 1, w.countUpTo);
  do {
    const out = await queryReportPage(w, Math.min(1000, Math.max(50, wanted - matched)), startKey);
    for (const item of out.Items ?? []) {
      if (item.type !== 'TRACKING') continue;
      if (matched >= w.skip && rows.length < w.take) rows.push(item);
      matched += 1;
    }
    startKey = out.LastEvaluatedKey;
  } while (startKey && matched < wanted);
  return { rows, matched, hasMore: matched > w.skip + rows.length, complete: startKey === undefined };
};

/**
 * Every TRACKING item of a report walk, newest first, a page at a time (the export job, decisions D128):
 * each yielded page is one Query's matches, so memory holds one page whatever the range.
 */
export async function* reportPages(
  w: Omit<ReportWalk, 'skip' | 'take' | 'countUpTo'>,
  pageSize: number,
): AsyncGenerator<Record<string, unknown>[]> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await queryReportPage(w, pageSize, startKey);
    const rows = (out.Items ?? []).filter((item) => item.type === 'TRACKING');
    if (rows.length > 0) yield rows;
    startKey = out.LastEvaluatedKey;
  } while (startKey);
}
