import type { QueueName } from '../shared/queues';

/**
 * Background work, described once for CDK (event source mappings, EventBridge rules) and for the local
 * cloud (pollers and minute ticks). A feature adds its consumer or tick here and nowhere else.
 */
export interface ConsumerDefinition {
  queue: QueueName;
  /** Module exporting `handler(event: SQSEvent): Promise<SQSBatchResponse>`. */
  entry: string;
  batchSize: number;
  /** Lambda timeout; the queue's visibility timeout must exceed it. */
  timeoutSeconds: number;
  /** FIFO queues: at most this many message groups processed in parallel. */
  maxConcurrency?: number;
}

export interface TickDefinition {
  name: string;
  /** Module exporting `handler(event: ScheduledEvent): Promise<void>`. */
  entry: string;
  /** Whole minutes between runs (EventBridge `rate(n minutes)`). */
  everyMinutes: number;
  timeoutSeconds: number;
  description: string;
}

/** Lambda consumers of the queues (the WhatsApp workers consume `worker-control`). */
export const CONSUMERS: readonly ConsumerDefinition[] = [
  // The inbound pipeline (functions/jobs/inbound/handler.ts): contact, ticket, message, events, replies.
  { queue: 'inbound', entry: 'functions/jobs/inbound/handler.ts', batchSize: 10, timeoutSeconds: 60 },
  // Sends (functions/jobs/outbound/handler.ts, D41): WhatsApp into the holder's outbox, Meta via the Graph API.
  { queue: 'outbound', entry: 'functions/jobs/outbound/handler.ts', batchSize: 10, timeoutSeconds: 60 },
  // A merged contact's tickets, messages, notes and tags move to the contact it became (D77).
  { queue: 'contact-merge', entry: 'functions/jobs/contact-merge/handler.ts', batchSize: 1, timeoutSeconds: 120 },
  // A deleted queue's tickets become tickets without a queue (D89).
  { queue: 'queue-removal', entry: 'functions/jobs/queue-removal/handler.ts', batchSize: 1, timeoutSeconds: 120 },
  // A contact spreadsheet's rows become contacts, chunk by chunk, with progress (D104).
  { queue: 'contact-import', entry: 'functions/jobs/contact-import/handler.ts', batchSize: 1, timeoutSeconds: 300 },
  // A deleted tag's contact and ticket links go (D100).
  { queue: 'tag-removal', entry: 'functions/jobs/tag-removal/handler.ts', batchSize: 1, timeoutSeconds: 120 },
  // A spreadsheet export (attendants, tickets report, contacts) streamed to S3 with progress (D127).
  { queue: 'export', entry: 'functions/jobs/export/handler.ts', batchSize: 1, timeoutSeconds: 900 },
  // A deleted contact list's items go, in bounded passes (D122).
  {
    queue: 'contact-list-removal',
    entry: 'functions/jobs/contact-list-removal/handler.ts',
    batchSize: 1,
    timeoutSeconds: 120,
  },
  // A deleted company's items, media and sessions removed, pass by pass (D156).
  { queue: 'company-purge', entry: 'functions/jobs/company-purge/handler.ts', batchSize: 1, timeoutSeconds: 300 },
  // A scheduled message's due occurrence: claimed, paced by the send governor, sent once (D118).
  { queue: 'schedule', entry: 'functions/jobs/schedule/handler.ts', batchSize: 5, timeoutSeconds: 100 },
  // A campaign's waves and its shipments' sends, each claimed and made once (D133).
  { queue: 'campaign', entry: 'functions/jobs/campaign/handler.ts', batchSize: 10, timeoutSeconds: 100 },
  // A flow run's timer came due: the engine moves the run on, each step claimed once (D139).
  { queue: 'flow', entry: 'functions/jobs/flow/handler.ts', batchSize: 10, timeoutSeconds: 100 },
  // A queue integration's or the AI assistant's debounced call: one per burst, claimed by key (D162).
  { queue: 'integration', entry: 'functions/jobs/integration/handler.ts', batchSize: 5, timeoutSeconds: 100 },
];

export const TICKS: readonly TickDefinition[] = [
  {
    name: 'ticket-timers',
    entry: 'functions/jobs/ticks/ticket-timers.ts',
    everyMinutes: 1,
    timeoutSeconds: 60,
    description:
      'Tickets whose timer is due (D95): NPS wait, bot expiry, redirect, inactivity notice and auto-close; queue rotation',
  },
  {
    name: 'stats-backfill',
    entry: 'functions/jobs/ticks/stats-backfill.ts',
    everyMinutes: 10,
    timeoutSeconds: 120,
    description: 'Dashboard counters for tickets made before they were recorded (D108): a batch per company',
  },
  {
    name: 'kanban-lanes',
    entry: 'functions/jobs/ticks/kanban-lanes.ts',
    everyMinutes: 1,
    timeoutSeconds: 60,
    description: 'Kanban lane greetings and lane times that came due: sends them, moves the cards (D102)',
  },
  {
    name: 'schedules',
    entry: 'functions/jobs/ticks/schedules.ts',
    everyMinutes: 1,
    timeoutSeconds: 60,
    description: 'Scheduled messages that came due (D118): onto the schedule queue; catches up after an outage',
  },
  {
    name: 'campaigns',
    entry: 'functions/jobs/ticks/campaigns.ts',
    everyMinutes: 1,
    timeoutSeconds: 60,
    description: 'Campaigns whose next wave is due (D133): onto the campaign queue; catches up after an outage',
  },
  {
    name: 'flows',
    entry: 'functions/jobs/ticks/flows.ts',
    everyMinutes: 1,
    timeoutSeconds: 60,
    description: 'Flow runs whose timer or expiry came due (D139): the backstop of their SQS timers',
  },
  {
    name: 'billing',
    entry: 'functions/jobs/ticks/billing.ts',
    everyMinutes: 1,
    timeoutSeconds: 60,
    description:
      'Invoices for renewal timers that came due (D152); open charges polled so a dropped webhook still pays (D153)',
  },
  {
    name: 'company-folders',
    entry: 'functions/jobs/ticks/company-folders.ts',
    everyMinutes: 60,
    timeoutSeconds: 300,
    description: "Companies' media folder size and file total, recounted about once a day from S3 (D156)",
  },
];
