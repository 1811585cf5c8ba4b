import { dispatchMetaSend } from '../../channels/meta/send-meta-message';
import { queueWhatsAppSend } from '../../core/pipeline/worker-outbox';
import type { InboundChannel } from '../../core/pipeline/inbound-event';
import { logger } from '../../shared/logger';
import { sqsConsumer } from '../consumer';
import { outboundJobSchema, type OutboundJob, type OutboundSend } from '../../core/pipeline/outbound-queue';
import { queueWhatsAppChange } from '../../core/messages/outbound-sender';

/**
 * Consumer of the `outbound` FIFO queue (decisions D34, D41; registered in functions/jobs/registry.ts).
 * Each send goes to its channel's sender in `OUTBOUND_DISPATCH`:
 * - `whatsapp` (Baileys / simulator): only the worker holding the connection's lease can send, so the job
 *   puts the send in that connection's outbox and wakes the holder, which sends in order;
 * - Meta channels (`whatsappapi`, `facebook`, `instagram`) send through the Graph API from here
 *   (functions/channels/meta/, added by the Meta item).
 * An edit or delete of a sent message (`kind: 'edit' | 'delete'`, decisions D75) exists for `whatsapp`
 * only and goes into the connection's outbox after the message's send, like a send.
 * A chat's sends are handled one after another in queue order; a failure reports that send and every
 * later one of its chat as batch item failures, so the order holds on the retry. A send that does not
 * parse, or whose channel has no sender here, is logged and dropped: it can never succeed.
 */
export type OutboundDispatch = (send: OutboundSend) => Promise<void>;

export const OUTBOUND_DISPATCH: Partial<Record<InboundChannel, OutboundDispatch>> = {
  whatsapp: queueWhatsAppSend,
  whatsappapi: dispatchMetaSend,
  facebook: dispatchMetaSend,
  instagram: dispatchMetaSend,
};

const dispatchOf = (job: OutboundJob): (() => Promise<void>) | undefined => {
  if (job.kind !== 'send') return () => queueWhatsAppChange(job);
  const dispatch = OUTBOUND_DISPATCH[job.channel];
  return dispatch && (() => dispatch(job));
};

export const handler = sqsConsumer({
  name: 'outbound send',
  schema: outboundJobSchema,
  describe: (job) => ({ companyId: job.companyId, whatsappId: job.whatsappId, channel: job.channel }),
  handle: async (job) => {
    const run = dispatchOf(job);
    if (!run) {
      logger.error('outbound send dropped: no sender for its channel', {
        companyId: job.companyId,
        whatsappId: job.whatsappId,
        channel: job.channel,
      });
      return;
    }
    await run();
  },
});
