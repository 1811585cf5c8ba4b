/**
 * Every SQS queue, described once. The CDK data stack creates them (with their dead-letter queues and
 * redrive policies) and the local cloud creates the same ones in fauxqs. Handlers find a queue's URL in
 * config().QUEUE_URLS under its logical name.
 */
export interface QueueDefinition {
  /** Logical name: key in QUEUE_URLS, base of the physical name. */
  name: string;
  fifo: boolean;
  /** Seconds a received message stays invisible; must exceed the consumer's timeout. */
  visibilityTimeoutSeconds: number;
  /** Receives before a message moves to the DLQ. */
  maxReceiveCount: number;
  /** FIFO only: dedup on the MessageDeduplicationId we set (provider message id), never on content. */
  contentBasedDeduplication?: false;
  retentionSeconds: number;
  description: string;
}

export const QUEUES = [
  {
    name: 'inbound',
    fifo: true,
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 5,
    retentionSeconds: 4 * 24 * 3600,
    description:
      'Normalised provider events; group = connection + chat keeps per-chat order, dedup = provider message id',
  },
  {
    name: 'outbound',
    fifo: true,
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 5,
    retentionSeconds: 4 * 24 * 3600,
    description: 'Sends for the channel workers; group = connection + chat keeps per-chat order',
  },
  {
    name: 'contact-merge',
    fifo: true,
    visibilityTimeoutSeconds: 300,
    maxReceiveCount: 5,
    retentionSeconds: 4 * 24 * 3600,
    description:
      "A merged contact's history moving to the contact it was folded into (decisions D77); group = the old contact",
  },
  {
    name: 'queue-removal',
    fifo: true,
    visibilityTimeoutSeconds: 300,
    maxReceiveCount: 5,
    retentionSeconds: 4 * 24 * 3600,
    description:
      "A deleted queue's tickets leaving it, in passes (decisions D89); group = the queue, dedup = queue and pass",
  },
  {
    name: 'contact-import',
    fifo: false,
    visibilityTimeoutSeconds: 360,
    maxReceiveCount: 5,
    retentionSeconds: 4 * 24 * 3600,
    description: 'A contact spreadsheet import, chunk by chunk, resumable at the last chunk recorded (decisions D104)',
  },
  {
    name: 'tag-removal',
    fifo: true,
    visibilityTimeoutSeconds: 300,
    maxReceiveCount: 5,
    retentionSeconds: 4 * 24 * 3600,
    description:
      "A deleted tag's contact and ticket links removed, in passes (decisions D100); group = the tag, dedup = tag and pass",
  },
  {
    name: 'export',
    fifo: false,
    // The consumer may work 900 s (an export of every report row); a delivery restarts the file from scratch.
    visibilityTimeoutSeconds: 960,
    maxReceiveCount: 3,
    retentionSeconds: 24 * 3600,
    description: 'A spreadsheet export written to S3 by a job, restarted from scratch after a crash (decisions D127)',
  },
  {
    name: 'contact-list-removal',
    fifo: true,
    visibilityTimeoutSeconds: 300,
    maxReceiveCount: 5,
    retentionSeconds: 4 * 24 * 3600,
    description:
      "A deleted contact list's items removed, in passes (decisions D122); group = the list, dedup = list and pass",
  },
  {
    name: 'company-purge',
    fifo: true,
    visibilityTimeoutSeconds: 360,
    maxReceiveCount: 5,
    retentionSeconds: 4 * 24 * 3600,
    description:
      "A deleted company's items, media and sessions removed, in passes (decisions D156); group = the company, dedup = company and pass",
  },
  {
    name: 'worker-control',
    fifo: false,
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    retentionSeconds: 3600,
    description: 'Connection start / stop / new QR requests from the API to the WhatsApp workers',
  },
  {
    name: 'campaign',
    fifo: false,
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 3,
    retentionSeconds: 14 * 24 * 3600,
    description: 'Campaign shipments, released with DelaySeconds to pace sends',
  },
  {
    name: 'schedule',
    fifo: false,
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 3,
    retentionSeconds: 14 * 24 * 3600,
    description: 'Scheduled messages that came due',
  },
  {
    name: 'flow',
    fifo: false,
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 5,
    retentionSeconds: 4 * 24 * 3600,
    description: "Flow runs' timers (decisions D139), released with DelaySeconds; the due index backs them up",
  },
  {
    name: 'integration',
    fifo: false,
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 5,
    retentionSeconds: 4 * 24 * 3600,
    description:
      "Queue integrations' and the AI assistant's debounced calls (decisions D162), released with DelaySeconds",
  },
] as const satisfies readonly QueueDefinition[];

export type QueueName = (typeof QUEUES)[number]['name'];

export const dlqName = (q: Pick<QueueDefinition, 'name'>): string => `${q.name}-dlq`;

/** Physical queue name for a stage prefix; FIFO names must end in `.fifo`. */
export const physicalQueueName = (prefix: string, q: Pick<QueueDefinition, 'name' | 'fifo'>, dlq = false): string =>
  `${prefix}-${dlq ? dlqName(q) : q.name}${q.fifo ? '.fifo' : ''}`;
