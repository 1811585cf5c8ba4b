import { Conflict } from '../shared/errors';
import { tableName } from './client';
import { MAX_TRANSACTION_ITEMS, transactWrite } from './transactions';

export { MAX_TRANSACTION_ITEMS };
import { BUSY, withRetry } from '../shared/retry';
import { batchWriteAll, type WriteRequest } from './batch-write';
import { consistentGet } from './consistent-reads';
import {
  messageHistoryKeys,
  messageKeys,
  messageSortKey,
  PROVIDER_REF_TTL_SECONDS,
  providerRefKeys,
  type ProviderRef,
  indexStoredWords,
  type StoredMessage,
} from './message-repository';
import { ticketKeys, ticketListSortKey, toTicket, type Ticket } from './ticket-repository';

/**
 * The inbound job's batch writes and reads (docs/data-model.md §2.17 "Batched", decisions D65): what one SQS
 * batch needs of the message items in as few DynamoDB calls as the rules allow.
 */
export interface ProviderRefKey {
  companyId: number;
  whatsappId: number;
  providerId: string;
}

export const providerRefKeyOf = (k: ProviderRefKey): string => `${k.companyId}:${k.whatsappId}:${k.providerId}`;

/**
 * Where each of a batch's provider messages landed, by `providerRefKeyOf`, read consistently: a key missing
 * from the answer was never stored. The reads go out with the other consistent reads of the same turn
 * (consistent-reads.ts) — the inbound job asks for its chats' contact identities beside them (D84).
 */
export const getProviderRefs = async (keys: readonly ProviderRefKey[]): Promise<Map<string, ProviderRef>> => {
  const unique = [...new Map(keys.map((k) => [providerRefKeyOf(k), k])).values()];
  const items = await Promise.all(
    unique.map((k) => consistentGet(providerRefKeys(k.companyId, k.whatsappId, k.providerId))),
  );
  const found = new Map<string, ProviderRef>();
  items.forEach((item, i) => {
    if (!item) return;
    found.set(providerRefKeyOf(unique[i]!), {
      ticketId: Number(item.ticketId),
      ulid: String(item.ulid),
      contactId: Number(item.contactId),
    });
  });
  return found;
};

/** A run of n messages takes n + 1 items of a transaction, which takes at most 100. */
export const MAX_RUN = 99;

class RunRefused extends Conflict {
  constructor() {
    super('ERR_CONFLICT', 'run refused');
  }
}

export interface MessageRun {
  /** Contact messages of one ticket, in order (none fromMe). */
  messages: readonly StoredMessage[];
  /** The ticket list's preview of the last of them. */
  lastMessage: string;
}

/** The run's last message, after checking it is contact messages of one ticket. */
const lastOf = (run: MessageRun): StoredMessage => {
  const last = run.messages[run.messages.length - 1];
  if (!last) throw new Error('an empty run');
  const { companyId, ticketId } = last;
  if (run.messages.some((m) => m.companyId !== companyId || m.ticketId !== ticketId || m.fromMe || !m.providerId)) {
    throw new Error('a run is contact messages of one ticket');
  }
  return last;
};

/** The provider-id pointers of a run's messages: each pins its message's ticket and ulid (the claim). */
const claimsOf = (run: MessageRun, ttl: number): WriteRequest[] =>
  run.messages.map((m) => ({
    PutRequest: {
      Item: {
        ...providerRefKeys(m.companyId, m.whatsappId, m.providerId!),
        type: 'WAMID',
        companyId: m.companyId,
        whatsappId: m.whatsappId,
        providerId: m.providerId,
        ticketId: m.ticketId,
        ulid: m.ulid,
        contactId: m.contactId,
        ttl,
      },
    },
  }));

const runItems = (run: MessageRun) => {
  const last = lastOf(run);
  const { companyId, ticketId } = last;
  return [
    ...run.messages.map((m) => ({
      Put: {
        TableName: tableName(),
        Item: {
          ...messageKeys(companyId, ticketId, m.ulid),
          ...messageHistoryKeys(companyId, m.contactId, m.ulid),
          type: 'MSG',
          ...m,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    })),
    {
      Update: {
        TableName: tableName(),
        Key: ticketKeys(companyId, ticketId),
        UpdateExpression:
          'SET lastMessage = :last, updatedAt = :at, lastMsgSk = :sk, gsi1sk = :list, gsi2sk = :list, ' +
          // The contact's latest message opens Meta's 24-hour reply window (decisions D40).
          'lastInboundAt = :at ADD unreadMessages :n',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':last': run.lastMessage,
          ':at': last.createdAt,
          ':sk': messageSortKey(last.ulid),
          ':list': ticketListSortKey(last.createdAt, ticketId),
          ':n': run.messages.length,
        },
      },
    },
  ];
};

/** Items a run takes in the transaction: its messages, plus its ticket. */
export const runItemCount = (messages: number): number => messages + 1;

/**
 * Stores runs of contact messages — each run one chat's consecutive messages on one ticket, in order; at
 * most one run per ticket, each provider id once, none of them stored before (the caller read their
 * pointers) — in the one-message protocol's two steps, each for all runs at once (data-model §2.17
 * "Batched", decisions D65, D84):
 *
 * 1. **Claims**: every message's provider-id pointer (`WAMID`, pinning its ticket and ulid) in BatchWrites.
 *    Unconditional: the inbound queue hands a chat's events to one batch at a time, and the caller found
 *    none of these ids, so nobody else writes them meanwhile.
 * 2. **ONE transaction** (≤ 100 items): every message (`Put MSG attribute_not_exists`) and one update per
 *    ticket for its whole run — lastMessage, updatedAt, lastMsgSk and list positions of the run's last
 *    message, `ADD unreadMessages :n`, lastInboundAt — all of it or nothing.
 *
 * `refused` when a condition fails (a ticket is gone, a message key taken): the transaction wrote nothing
 * and the caller sends the messages through the one-event path, which finds their claims and stores each
 * under its pinned key (or drops it when its ticket is gone) — the same path that finishes the job when a
 * crash comes between the claims and the transaction, on the redelivery.
 */
export const storeMessageRuns = async (
  runs: readonly MessageRun[],
  now = Date.now(),
): Promise<'stored' | 'refused'> => {
  const ttl = Math.floor(now / 1000) + PROVIDER_REF_TTL_SECONDS;
  const TransactItems = runs.flatMap((run) => runItems(run));
  if (TransactItems.length === 0 || TransactItems.length > MAX_TRANSACTION_ITEMS) {
    throw new Error(`a transaction holds 1..${MAX_TRANSACTION_ITEMS} items`);
  }
  await batchWriteAll(runs.flatMap((run) => claimsOf(run, ttl)));
  try {
    await withRetry(BUSY, () => transactWrite(TransactItems, () => new RunRefused()));
  } catch (err) {
    if (err instanceof RunRefused) return 'refused';
    throw err;
  }
  for (const run of runs) await indexStoredWords(run.messages[0]!.companyId, run.messages);
  return 'stored';
};

/**
 * Tickets after a write, read consistently and together (the events carry their new state): one BatchGet
 * through `consistentGet`, which chunks and retries what DynamoDB leaves unprocessed.
 */
export const getTickets = async (companyId: number, ids: readonly number[]): Promise<Map<number, Ticket>> => {
  const items = await Promise.all([...new Set(ids)].map((id) => consistentGet(ticketKeys(companyId, id))));
  const found = new Map<number, Ticket>();
  for (const item of items) {
    if (!item) continue;
    const ticket = toTicket(item);
    found.set(ticket.id, ticket);
  }
  return found;
};
