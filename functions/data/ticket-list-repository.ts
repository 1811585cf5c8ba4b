import { BatchGetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { contactPartition } from './contact-repository';
import { decodeCursor, encodeCursor } from './cursor';
import { mapDynamoErrors } from './errors';
import { company, pad } from './keys';
import type { Page } from './query-page';
import { ticketKeys, toTicket, type Ticket, type TicketStatus } from './ticket-repository';

/**
 * Ticket lists (docs/data-model.md §1.7, §3.2). A list is a k-way merge of streams — one Query each over
 * one list partition: gsi1 `C#<c>#TQ#<q>#<status>` (a queue's tickets in one status) or gsi2
 * `C#<c>#TU#<u>#<status>` (an attendant's) — which all share the sort-key space `<updatedAt>#<pad id>`,
 * so merging them gives one globally ordered page. The cursor is the sort key of the last item examined:
 * the next page Queries every stream beyond it, so every page costs O(k × page), however deep.
 */
export type TicketStream = { index: 'gsi1' | 'gsi2'; partition: string };

export const queueStream = (companyId: number, queueId: number | null, status: TicketStatus): TicketStream => ({
  index: 'gsi1',
  partition: `${company(companyId)}#TQ#${pad(queueId ?? 0)}#${status}`,
});
export const userStream = (companyId: number, userId: number, status: TicketStatus): TicketStream => ({
  index: 'gsi2',
  partition: `${company(companyId)}#TU#${pad(userId)}#${status}`,
});

export interface TicketFilter {
  whatsappIds?: number[] | undefined;
  tagIds?: number[] | undefined;
  unreadOnly?: boolean | undefined;
}

export interface TicketListQuery {
  /** Binds the cursor to this list: the company and every input that selects streams or filters. */
  scope: string;
  streams: TicketStream[];
  descending: boolean;
  /** Only tickets updated within [from, to] (ISO times). */
  updatedBetween?: { from: string; to: string } | undefined;
  filter?: TicketFilter;
  /** Checked in memory after the read (visibility): rejected tickets still move the cursor. */
  accept?: (t: Ticket) => boolean;
  limit: number;
  cursor?: string | undefined;
}

/** Lowest and highest possible sort keys (`<ISO time>#<pad id>` always sorts between them). */
const LOWEST = ' ';
const HIGHEST = '\u{10FFFF}';

const filterOf = (f: TicketFilter | undefined) => {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (f?.whatsappIds?.length) {
    parts.push(`whatsappId IN (${f.whatsappIds.map((_, i) => `:w${i}`).join(', ')})`);
    f.whatsappIds.forEach((w, i) => (values[`:w${i}`] = w));
  }
  if (f?.tagIds?.length) {
    parts.push(`(${f.tagIds.map((_, i) => `contains(tagIds, :t${i})`).join(' OR ')})`);
    f.tagIds.forEach((t, i) => (values[`:t${i}`] = t));
  }
  if (f?.unreadOnly) {
    parts.push('unreadMessages > :zero');
    values[':zero'] = 0;
  }
  return parts.length === 0 ? null : { expression: parts.join(' AND '), names, values };
};

export const listTicketStreams = async (q: TicketListQuery): Promise<Page<Ticket>> => {
  if (q.streams.length === 0) return { items: [], hasMore: false };
  const after = q.cursor ? String((await decodeCursor(q.scope, q.cursor)).after) : undefined;
  const filter = filterOf(q.filter);
  const lower = q.descending ? (q.updatedBetween?.from ?? LOWEST) : (after ?? q.updatedBetween?.from ?? LOWEST);
  const upper = q.descending ? (after ?? `${q.updatedBetween?.to ?? HIGHEST}~`) : `${q.updatedBetween?.to ?? HIGHEST}~`;
  const streams = await Promise.all(
    q.streams.map(async (stream) => {
      const pk = `${stream.index}pk`;
      const sk = `${stream.index}sk`;
      const params: QueryCommandInput = {
        TableName: tableName(),
        IndexName: stream.index,
        KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :lower AND :upper',
        ExpressionAttributeNames: { '#pk': pk, '#sk': sk, ...filter?.names },
        ExpressionAttributeValues: { ':pk': stream.partition, ':lower': lower, ':upper': upper, ...filter?.values },
        ...(filter ? { FilterExpression: filter.expression } : {}),
        ScanIndexForward: !q.descending,
        // BETWEEN is inclusive: the cursor's own item comes back first and is dropped.
        Limit: q.limit + 1 + (after === undefined ? 0 : 1),
      };
      const out = await mapDynamoErrors(() => db().send(new QueryCommand(params)));
      return {
        items: ((out.Items ?? []) as Record<string, unknown>[])
          .filter((i) => i[sk] !== after)
          .map((i) => ({ key: String(i[sk]), item: i })),
        lastExamined: out.LastEvaluatedKey ? String(out.LastEvaluatedKey[sk]) : undefined,
      };
    }),
  );
  // An unfinished stream may still hold items beyond its last examined key: nothing past the nearest such
  // key is emitted on this page.
  const open = streams.flatMap((s) => (s.lastExamined === undefined ? [] : [s.lastExamined])).sort();
  const cutoff = q.descending ? open[open.length - 1] : open[0];
  const beyond = (key: string) => cutoff !== undefined && (q.descending ? key < cutoff : key > cutoff);
  const merged = streams
    .flatMap((s) => s.items)
    .filter((i) => !beyond(i.key))
    .sort((a, b) => (a.key === b.key ? 0 : a.key < b.key === q.descending ? 1 : -1));
  const page: Ticket[] = [];
  let last: string | undefined;
  let index = 0;
  for (; index < merged.length && page.length < q.limit; index += 1) {
    const { key, item } = merged[index]!;
    last = key;
    const ticket = toTicket(item);
    if (!q.accept || q.accept(ticket)) page.push(ticket);
  }
  const filledEarly = index < merged.length;
  const hasMore = filledEarly || cutoff !== undefined;
  const boundary = filledEarly ? last : cutoff;
  return {
    items: page,
    hasMore,
    ...(hasMore && boundary !== undefined ? { nextCursor: await encodeCursor(q.scope, { after: boundary }) } : {}),
  };
};

/** TICKET items by id (BatchGet, ≤ 100 per call), in the order asked; missing ones left out. */
export const getTickets = async (companyId: number, ids: readonly number[]): Promise<Ticket[]> => {
  const found = new Map<number, Ticket>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 100) {
    let pending: Record<string, unknown>[] = unique.slice(i, i + 100).map((id) => ticketKeys(companyId, id));
    for (let attempt = 0; pending.length > 0 && attempt < 8; attempt += 1) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      const out = await mapDynamoErrors(() =>
        db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending } } })),
      );
      for (const item of out.Responses?.[tableName()] ?? []) {
        const t = toTicket(item);
        found.set(t.id, t);
      }
      pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return ids.flatMap((id) => {
    const t = found.get(id);
    return t ? [t] : [];
  });
};

/** A contact's ticket ids, newest first (gsi3 on TRACKING), at most `limit`. */
export const contactTicketIds = async (companyId: number, contactId: number, limit = 20): Promise<number[]> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :pk',
        ExpressionAttributeValues: { ':pk': `${contactPartition(companyId, contactId)}#T` },
        ScanIndexForward: false,
        ProjectionExpression: 'ticketId',
        Limit: limit,
      }),
    ),
  );
  return (out.Items ?? []).map((i) => Number(i.ticketId));
};

/** Ticket ids created within [from, to] (gsi5 `C#<c>#TCREATED`), one page. */
export const ticketIdsCreatedBetween = async (
  companyId: number,
  range: { from: string; to: string },
  limit: number,
  cursor: string | undefined,
): Promise<Page<number>> => {
  const scope = `${company(companyId)}#TCREATED#${range.from}#${range.to}`;
  const after = cursor ? String((await decodeCursor(scope, cursor)).after) : undefined;
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi5',
        KeyConditionExpression: 'gsi5pk = :pk AND gsi5sk BETWEEN :lower AND :upper',
        ExpressionAttributeValues: {
          ':pk': `${company(companyId)}#TCREATED`,
          ':lower': range.from,
          ':upper': after ?? `${range.to}~`,
        },
        ScanIndexForward: false,
        ProjectionExpression: 'ticketId, gsi5sk',
        Limit: limit + 1 + (after === undefined ? 0 : 1),
      }),
    ),
  );
  const rows = (out.Items ?? []).filter((i) => i.gsi5sk !== after);
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit || out.LastEvaluatedKey !== undefined;
  const last = page[page.length - 1]?.gsi5sk;
  return {
    items: page.map((i) => Number(i.ticketId)),
    hasMore,
    ...(hasMore && last !== undefined ? { nextCursor: await encodeCursor(scope, { after: String(last) }) } : {}),
  };
};
