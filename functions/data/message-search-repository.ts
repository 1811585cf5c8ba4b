import { BatchGetCommand, BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { decodeCursor, encodeCursor } from './cursor';
import { mapDynamoErrors } from './errors';
import { company, pad, searchForm } from './keys';
import type { Page } from './query-page';

/**
 * The message search index (data-model §2.18; decisions D47): one posting per (word, ticket),
 * `pk = C#<c>#MW#<first 3 characters of the word>, sk = <word>#<pad ticketId>`, written when a message is
 * stored. `searchOnMessages` then finds the tickets whose messages hold a word with one Query — never by
 * reading the company's messages. Postings are idempotent Puts (a word said 50 times in a ticket is one
 * posting) and are not removed when a message is edited or deleted.
 */
const MAX_TOKENS = 16;
const STOP_WORDS = new Set(
  (
    'que para com uma por mais como mas foi ele ela isso esse essa este esta tem ter sao nao sim voce vc ' +
    'obrigado obrigada ola bom boa dia tarde noite the and for you are with this that have not was ' +
    'los las una por con para del que como pero muy bir ile icin cok ama gibi daha'
  ).split(' '),
);

/** The words of a text worth indexing: search form, 3–30 letters/digits, no stop words, at most 16. */
export const messageTokens = (text: string): string[] => {
  const words = searchForm(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3 && w.length <= 30 && !STOP_WORDS.has(w));
  return [...new Set(words)].slice(0, MAX_TOKENS);
};

const postingPartition = (companyId: number, word: string): string => `${company(companyId)}#MW#${word.slice(0, 3)}`;
const postingKeys = (companyId: number, word: string, ticketId: number) => ({
  pk: postingPartition(companyId, word),
  sk: `${word}#${pad(ticketId)}`,
});

/**
 * Postings this process wrote lately (key → when): a ticket's words repeat from message to message, and a
 * posting is the same item however often its word is said, so a word written for a ticket in the last
 * RECENT_MS is not written again (decisions D80). Bounded; the oldest entries go first. A process that
 * does not remember (a new Lambda container) just writes it again.
 */
const RECENT_MS = 10 * 60_000;
const RECENT_MAX = 50_000;
const recentlyWritten = new Map<string, number>();
const remember = (key: string, at: number) => {
  recentlyWritten.delete(key);
  recentlyWritten.set(key, at);
  if (recentlyWritten.size > RECENT_MAX) {
    const oldest = recentlyWritten.keys().next().value;
    if (oldest !== undefined) recentlyWritten.delete(oldest);
  }
};

/** Indexes the words of messages stored on tickets (BatchWrite, 25 a call; idempotent). */
export const indexMessageWords = async (
  companyId: number,
  messages: readonly { ticketId: number; body: string; createdAt: string }[],
  now = Date.now(),
): Promise<void> => {
  const items = new Map<string, Record<string, unknown>>();
  for (const m of messages) {
    for (const word of messageTokens(m.body)) {
      const keys = postingKeys(companyId, word, m.ticketId);
      const key = `${keys.pk}|${keys.sk}`;
      const written = recentlyWritten.get(key);
      if (written !== undefined && now - written < RECENT_MS) continue;
      items.set(key, {
        ...keys,
        type: 'POSTING',
        companyId,
        ticketId: m.ticketId,
        lastSeenAt: m.createdAt,
      });
    }
  }
  const all = [...items.entries()];
  for (let i = 0; i < all.length; i += 25) {
    const chunk = all.slice(i, i + 25);
    let pending = chunk.map(([, Item]) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length > 0 && attempt < 8; attempt += 1) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      const out = await mapDynamoErrors(() =>
        db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } })),
      );
      pending = (out.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
    }
    // Remembered once written (items still unprocessed after the retries are not).
    const left = new Set(pending.map((p) => `${String(p.PutRequest.Item.pk)}|${String(p.PutRequest.Item.sk)}`));
    for (const [key] of chunk) if (!left.has(key)) remember(key, now);
  }
};

/**
 * Tickets whose messages hold every word of `text`: the last word (possibly still being typed) drives a
 * prefix Query, newest tickets first within each word; each other word is checked per candidate with a
 * BatchGet of its exact posting. One page of candidates per call, O(page × words).
 */
export const searchMessageTickets = async (
  companyId: number,
  text: string,
  limit: number,
  cursor: string | undefined,
): Promise<Page<number>> => {
  const words = messageTokens(text);
  const lastWord =
    searchForm(text)
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .pop() ?? '';
  if (lastWord.length < 3) return { items: [], hasMore: false };
  const others = words.filter((w) => w !== lastWord);
  const scope = `${company(companyId)}#MW#${lastWord}#${others.join(',')}`;
  const after = cursor ? String((await decodeCursor(scope, cursor)).after) : undefined;
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: after
          ? 'pk = :pk AND sk BETWEEN :lower AND :after'
          : 'pk = :pk AND begins_with(sk, :w)',
        ExpressionAttributeValues: {
          ':pk': postingPartition(companyId, lastWord),
          ...(after ? { ':lower': lastWord, ':after': after } : { ':w': lastWord }),
        },
        ScanIndexForward: false,
        Limit: limit + 1 + (after ? 1 : 0),
      }),
    ),
  );
  const rows = (out.Items ?? []).filter((i) => i.sk !== after && String(i.sk).startsWith(lastWord));
  const page = rows.slice(0, limit);
  let ids = [...new Set(page.map((i) => Number(i.ticketId)))];
  for (const word of others) {
    if (ids.length === 0) break;
    const res = await mapDynamoErrors(() =>
      db().send(
        new BatchGetCommand({
          RequestItems: {
            [tableName()]: {
              Keys: ids.map((id) => postingKeys(companyId, word, id)),
              ProjectionExpression: 'ticketId',
            },
          },
        }),
      ),
    );
    const found = new Set((res.Responses?.[tableName()] ?? []).map((i) => Number(i.ticketId)));
    ids = ids.filter((id) => found.has(id));
  }
  const hasMore = rows.length > limit || (out.LastEvaluatedKey !== undefined && rows.length > 0);
  const last = page[page.length - 1]?.sk;
  return {
    items: ids,
    hasMore,
    ...(hasMore && last !== undefined ? { nextCursor: await encodeCursor(scope, { after: String(last) }) } : {}),
  };
};
