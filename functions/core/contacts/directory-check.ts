import * as z from 'zod';
import { getConnection, getDefaultConnectionId } from '../../data/connection-repository';
import { getDirectoryAnswer, putDirectoryAnswer } from '../../data/directory-answer-repository';
import { putOutboxItem } from '../../data/wa-outbox-repository';
import { newUlid } from '../../data/ulids';
import { BadRequest, DomainError, NotFound, ValidationError } from '../../shared/errors';
import { wakeHolder } from '../pipeline/worker-outbox';

/**
 * Asking WhatsApp's directory whether numbers have WhatsApp and waiting for the answer (decisions D149) —
 * `validateContact` of the contact import and of `POST /contactsImport`. Only the worker holding the
 * connection's socket can ask: the request goes into the connection's outbox as a `check` item naming a
 * request id, the holder asks the directory and writes the answer under that id, and the caller reads it
 * (strongly consistent) until it is there or the wait is over. A check nobody carried out in time is
 * dropped by the holder (`expiresAt`), so a connection that comes back later does not work through stale
 * checks.
 */
export const requestCheckSchema = z.object({
  requestId: z.string().min(10).max(40),
  numbers: z
    .array(z.string().regex(/^\d{8,20}$/))
    .min(1)
    .max(500),
  expiresAt: z.number().int().positive(),
});

export type RequestCheck = z.infer<typeof requestCheckSchema>;

/** 503 `ERR_WAPP_CHECK_CONTACT`: the connection could not answer in time (down, or busy); try again later. */
export class DirectoryUnavailable extends DomainError {
  constructor(retryAfterSeconds = 30) {
    super(503, 'ERR_WAPP_CHECK_CONTACT', 'WhatsApp could not check the number now, try again', {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}

const POLL_MS = 150;

export interface AskOptions {
  /** Longest wait for the holder's answer. */
  timeoutMs: number;
  /** Test seam: how the wait passes. */
  sleep?: (ms: number) => Promise<void>;
}

/** Which of the numbers have WhatsApp, as the connection's directory answers; DirectoryUnavailable after the wait. */
export const askDirectory = async (
  companyId: number,
  whatsappId: number,
  numbers: readonly string[],
  options: AskOptions,
): Promise<Record<string, boolean>> => {
  const unique = [...new Set(numbers)];
  if (unique.length === 0) return {};
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  const started = Date.now();
  const requestId = newUlid(started);
  const check: RequestCheck = { requestId, numbers: unique, expiresAt: started + options.timeoutMs };
  await putOutboxItem(companyId, whatsappId, `CHECK#${requestId}`, 'check', check);
  await wakeHolder(companyId, whatsappId);
  while (Date.now() - started < options.timeoutMs) {
    await sleep(POLL_MS);
    const answers = await getDirectoryAnswer(companyId, requestId);
    if (answers) return answers;
  }
  throw new DirectoryUnavailable();
};

/** The holder's side: the answers under the request's id (a late check is not carried out at all). */
export const recordDirectoryAnswer = (
  companyId: number,
  check: RequestCheck,
  answers: Record<string, boolean>,
): Promise<void> => putDirectoryAnswer(companyId, check.requestId, answers);

/**
 * The WhatsApp connection that reads the phone or asks the directory for a request: the one named, else the
 * company's default; 404 when there is none (another company's id included), 400 on the field for another
 * channel, 400 `ERR_WAPP_NOT_INITIALIZED` when its session is not connected now.
 */
export const connectedWhatsApp = async (companyId: number, whatsappId: number | undefined): Promise<number> => {
  const id = whatsappId ?? (await getDefaultConnectionId(companyId));
  if (id === null) throw new NotFound('ERR_NO_DEF_WAPP_FOUND', 'The company has no default connection');
  const connection = await getConnection(companyId, id);
  if (!connection) throw new NotFound('ERR_NO_WAPP_FOUND', 'Connection not found');
  if (connection.channel !== 'whatsapp') {
    throw new ValidationError([{ field: 'body.whatsappId', reason: 'only a WhatsApp connection has a phone to ask' }]);
  }
  if (connection.status !== 'CONNECTED') {
    throw new BadRequest('ERR_WAPP_NOT_INITIALIZED', 'The WhatsApp connection is not connected');
  }
  return id;
};
