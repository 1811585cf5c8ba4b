import { inboundEventSchema, type InboundEvent, type InboundMessage } from '../../core/pipeline/inbound-event';
import {
  handleInboundEvent,
  handleMessageRun,
  handleMessageRuns,
  runKey,
  runnable,
  type InboundOutcome,
} from '../../core/inbound/inbound-service';
import { ReadScope, SharedReads } from '../../data/read-scope';
import { contactSubjectOf } from '../../core/inbound/contact-upsert';
import { readIdentitiesAhead } from '../../data/contact-repository';
import { errorFields, logger } from '../../shared/logger';
import { sqsBatchConsumer, type ConsumerRecord } from '../consumer';
import { getProviderRefs, MAX_RUN, providerRefKeyOf } from '../../data/inbound-batch-repository';

/**
 * Consumer of the `inbound` FIFO queue (registered in functions/jobs/registry.ts). A batch holds up to 10
 * events of one or more chats; each chat's events are handled one after another in queue order, different
 * chats in parallel. Consecutive plain contact messages of a chat are stored as one run (one contact
 * upsert, one ticket find, one transaction, decisions D65); everything else one event at a time. A failure reports that event and every later one of its chat as batch item failures,
 * so the chat's order holds on the retry (SQS redelivers after the visibility timeout; after 5 receives
 * the queue's redrive policy parks them in the DLQ). An event that does not parse can never succeed: it is
 * logged (its problems, never its content) and dropped, so it cannot hold its chat back (D31).
 */
type Parsed = ConsumerRecord<InboundEvent>;

/**
 * Where the batch's messages already landed, in one BatchGet (decisions D65): a message found there is a
 * redelivery and takes the one-event path; the others may be stored in runs. Null when the read failed —
 * then every event takes the one-event path, which reads for itself.
 */
const storedRefs = async (items: readonly Parsed[]): Promise<Set<string> | null> => {
  const keys = items.flatMap(({ body: event }) =>
    event && runnable(event)
      ? [{ companyId: event.companyId, whatsappId: event.whatsappId, providerId: event.providerMessageId }]
      : [],
  );
  if (keys.length === 0) return new Set();
  try {
    return new Set((await getProviderRefs(keys)).keys());
  } catch (err) {
    logger.warn('inbound batch: provider ids not read ahead', errorFields(err));
    return null;
  }
};

const refOf = (event: InboundEvent): string =>
  providerRefKeyOf({ companyId: event.companyId, whatsappId: event.whatsappId, providerId: event.providerMessageId });

/**
 * How many events from `start` form a run (handleMessageRun): consecutive runnable messages of the same
 * run key, none pinned before or earlier in the batch (`pinned` grows as the chat's events are handled),
 * each provider id once. 0 when the event at `start` is not runnable.
 */
const runLength = (items: readonly Parsed[], start: number, pinned: Set<string> | null): number => {
  if (!pinned) return 0;
  const head = items[start]?.body;
  if (!head || !runnable(head)) return 0;
  const key = runKey(head);
  const seen = new Set<string>();
  let n = 0;
  for (let i = start; i < items.length && n < MAX_RUN; i += 1) {
    const event = items[i]!.body;
    if (!event || !runnable(event) || runKey(event) !== key) break;
    const ref = refOf(event);
    if (pinned.has(ref) || seen.has(ref)) break;
    seen.add(ref);
    n += 1;
  }
  return n;
};

/**
 * Company reads shared by this instance's batches (decisions D67): configuration (connection, time zone,
 * settings, queues) for up to a second, who is online for up to 250 ms. With small batches they would
 * otherwise cost as much as the messages.
 */
export const SHARED_READS = { configMs: 1_000, viewersMs: 250 } as const;
const shared = new SharedReads(SHARED_READS);

export const handler = sqsBatchConsumer({
  name: 'inbound event',
  schema: inboundEventSchema,
  describe: (e) => ({ companyId: e.companyId, whatsappId: e.whatsappId, kind: e.kind }),
  handleBatch: async ({ groups, fail }) => {
    const scope = new ReadScope(shared);
    // The chats' contact identities are read with the provider ids, in the same request (decisions D84).
    for (const items of groups) {
      const first = items[0]?.body;
      if (first && runnable(first)) {
        readIdentitiesAhead(scope.readAhead, first.companyId, contactSubjectOf(first).identities);
      }
    }
    // Provider ids already pinned: stored before this batch, then each one this batch handles.
    const pinned = await storedRefs(groups.flat());

    const outcomes: Record<string, number> = {};
    let failed = 0;
    const count = (outcome: InboundOutcome | 'invalid') => (outcomes[outcome] = (outcomes[outcome] ?? 0) + 1);
    const failRun = (items: readonly Parsed[], from: number, err: unknown, run: number) => {
      failed += items.length - from;
      fail(items, from, err, run > 1 ? { run } : {});
    };

    // Chats whose whole share of the batch is one run are written together, in one transaction (D65).
    const whole = groups.filter((items) => runLength(items, 0, pinned) === items.length);
    const rest = groups.filter((items) => !whole.includes(items));

    const together = async () => {
      if (whole.length === 0) return;
      let settled: PromiseSettledResult<InboundOutcome[]>[];
      try {
        settled = await handleMessageRuns(
          whole.map((items) => items.map((p) => p.body as InboundMessage)),
          scope,
        );
      } catch (err) {
        for (const items of whole) failRun(items, 0, err, items.length);
        return;
      }
      settled.forEach((result, i) => {
        if (result.status === 'fulfilled') result.value.forEach(count);
        else failRun(whole[i]!, 0, result.reason, whole[i]!.length);
      });
    };

    const oneChat = async (items: Parsed[]) => {
      for (let i = 0; i < items.length;) {
        const inbound = items[i]!.body;
        if (!inbound) {
          count('invalid');
          i += 1;
          continue;
        }
        const run = runLength(items, i, pinned);
        try {
          if (run > 0) {
            const events = items.slice(i, i + run).map((p) => p.body as InboundMessage);
            for (const outcome of await handleMessageRun(events, scope)) count(outcome);
          } else {
            count(await handleInboundEvent(inbound, scope));
          }
        } catch (err) {
          failRun(items, i, err, run);
          return;
        }
        // Their provider ids are pinned now: a repeat later in this chat's share of the batch is no new
        // message, so it takes the one-event path, which finds the pin (runs pin without a condition, D84).
        for (const p of items.slice(i, i + Math.max(run, 1))) {
          if (p.body?.kind === 'message') pinned?.add(refOf(p.body));
        }
        i += Math.max(run, 1);
      }
    };

    await Promise.all([together(), ...rest.map(oneChat)]);
    logger.info('inbound batch', { records: groups.flat().length, failed, outcomes });
  },
});
