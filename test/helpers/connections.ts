import { createConnection, getConnection, type Connection } from '../../functions/data/connection-repository';
import { api } from './fixtures';
import type { TestSocket } from './ws-client';

/**
 * Connection fixtures: connections made directly in storage (no plan limit, no worker command), and waits
 * for what the local cloud's WhatsApp worker does with the commands the API sends it (it consumes the
 * `worker-control` queue, so tests watch the connection and the socket events, not the queue).
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

/** Polls until `read()` gives a value `accept` takes; fails with the last value after `timeoutMs`. */
export const waitFor = async <T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> => {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  let last: T;
  for (;;) {
    last = await read();
    if (accept(last)) return last;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${options.what ?? 'a condition'}; last: ${JSON.stringify(last)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
};

/** The stored connection once it satisfies `accept` (the WhatsApp worker of the local cloud answers commands). */
export const waitForConnection = (
  companyId: number,
  id: number,
  accept: (c: Connection | null) => boolean,
  options: { timeoutMs?: number; what?: string } = {},
): Promise<Connection | null> =>
  waitFor(() => getConnection(companyId, id), accept, { what: `connection ${id}`, ...options });

export type SocketEvent = { channel?: string; action?: string; [field: string]: unknown };

/**
 * Reads a test socket's events until one satisfies `accept`; answers every event read, the match last.
 * Fails after `timeoutMs` (a later event is then lost to this socket's readers: the test fails anyway).
 */
export const eventsUntil = async (
  socket: TestSocket,
  accept: (event: SocketEvent) => boolean,
  timeoutMs = 10_000,
): Promise<SocketEvent[]> => {
  const seen: SocketEvent[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = deadline - Date.now();
    const event = (await Promise.race([
      socket.next(),
      new Promise((resolve) => setTimeout(() => resolve(undefined), Math.max(0, left))),
    ])) as SocketEvent | undefined;
    if (event === undefined) {
      throw new Error(`no matching socket event within ${timeoutMs} ms; seen: ${JSON.stringify(seen)}`);
    }
    seen.push(event);
    if (accept(event)) return seen;
  }
};

/** A `company-{id}-whatsappSession` update for this connection with this status. */
export const isSessionUpdate =
  (companyId: number, whatsappId: number, status?: string) =>
  (e: SocketEvent): boolean => {
    const session = e.session as { id?: number; status?: string } | undefined;
    return (
      e.channel === `company-${companyId}-whatsappSession` &&
      e.action === 'update' &&
      session?.id === whatsappId &&
      (status === undefined || session.status === status)
    );
  };

/** The statuses a socket saw for one connection, in order (session updates only). */
export const sessionStatuses = (events: SocketEvent[], companyId: number, whatsappId: number): string[] =>
  events.filter(isSessionUpdate(companyId, whatsappId)).map((e) => (e.session as { status: string }).status);

/**
 * A WhatsApp connection made through the API and paired through the phone simulator (POST /whatsapp, then
 * `/simulator/{id}/scan` until the local cloud's worker says CONNECTED). Answers its id.
 */
export const connectedSimulatorConnection = async (
  token: string,
  companyId: number,
  name = `Simulador ${suffix()}`,
): Promise<number> => {
  const created = await api(token).post('/whatsapp', { name });
  if (created.status !== 201) throw new Error(`connection not created: ${JSON.stringify(created.body)}`);
  const id = created.body.id as number;
  await waitForConnection(companyId, id, (c) => c?.status === 'qrcode', { timeoutMs: 15_000 });
  const deadline = Date.now() + 40_000;
  for (;;) {
    const current = await getConnection(companyId, id);
    if (current?.status === 'CONNECTED') return id;
    if (current?.status === 'qrcode') await api(token).post(`/simulator/${id}/scan`);
    if (Date.now() > deadline) throw new Error(`connection ${id} did not connect; last ${current?.status}`);
    await waitForConnection(companyId, id, (c) => c?.status === 'CONNECTED', { timeoutMs: 4_000 }).catch(
      () => undefined,
    );
  }
};
