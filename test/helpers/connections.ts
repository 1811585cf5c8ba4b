import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { inject } from 'vitest';
import { createConnection, type Connection } from '../../functions/data/connection-repository';

/**
 * Connection fixtures: connections made directly in storage (no plan limit, no worker command), and a
 * reader of the `worker-control` queue for the commands the API sends to the WhatsApp workers.
 */
const suffix = () => Math.random().toString(36).slice(2, 8);

export const someConnection = async (
  companyId: number,
  fields: Partial<Pick<Connection, 'name' | 'channel' | 'status'>> = {},
): Promise<Connection> =>
  (
    await createConnection(companyId, {
      name: `Conexão ${suffix()}`,
      channel: 'whatsapp',
      status: 'DISCONNECTED',
      ...fields,
    })
  ).connection;

/** A connection that is not its company's default (so it may be deleted while others exist). */
export const nonDefaultConnection = async (companyId: number): Promise<Connection> => {
  const first = await someConnection(companyId);
  return first.isDefault ? someConnection(companyId) : first;
};

/** The spec's media-upload form: one `file` part. */
export const greetingForm = (
  bytes: Buffer = Buffer.from('%PDF-1.4\n% saudação\n'),
  filename = 'boas-vindas.pdf',
  type = 'application/pdf',
) => {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), filename);
  return form;
};

export interface WorkerCommand {
  companyId: number;
  whatsappId: number;
  command: string;
  requestedAt: string;
}

let sqs: SQSClient | undefined;

/**
 * Waits for the commands sent for one connection and removes them from the queue. Commands for other
 * connections (the permission matrix sends some) are only hidden for a second, not deleted: every reader
 * gets past them, and nobody loses theirs.
 */
export const takeWorkerCommands = async (
  whatsappId: number,
  options: { count?: number; timeoutMs?: number } = {},
): Promise<WorkerCommand[]> => {
  const env = inject('localCloudEnv');
  sqs ??= new SQSClient({ endpoint: env.SQS_ENDPOINT, region: env.AWS_REGION });
  const url = (JSON.parse(env.QUEUE_URLS ?? '{}') as Record<string, string>)['worker-control'];
  if (!url) throw new Error('the local cloud has no worker-control queue');
  const wanted = options.count ?? 1;
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  const found: WorkerCommand[] = [];
  while (found.length < wanted && Date.now() < deadline) {
    const out = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, VisibilityTimeout: 1 }),
    );
    for (const message of out.Messages ?? []) {
      const body = JSON.parse(message.Body ?? '{}') as WorkerCommand;
      if (body.whatsappId !== whatsappId) continue;
      found.push(body);
      await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: message.ReceiptHandle }));
    }
  }
  return found.sort((a, b) => a.requestedAt.localeCompare(b.requestedAt));
};
