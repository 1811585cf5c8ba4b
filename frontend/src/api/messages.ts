import type {
  CreateMessageUploadBody,
  EditMessageBody,
  ForwardMessageBody,
  MessagePage,
  MessageUpload,
  MessageView,
  SendMessageBody,
  TranscriptionAnswer,
} from '@contracts/messages';
import { api } from './transport';

/**
 * Messages of a ticket (core spec §3 Message, §7 Messages): the typed client of functions/http/messages.
 * The wire shapes are the server's contract (functions/contracts/messages.ts).
 */
export type Message = MessageView;
export type { MessagePage, MessageUpload };

interface CallOptions {
  signal?: AbortSignal;
}

/** GET /messages/{ticketUuid}?pageNumber (from 1)&selectedQueues. */
export const listMessages = (
  ticketUuid: string,
  pageNumber: number,
  selectedQueues: number[] = [],
  options: CallOptions = {},
): Promise<MessagePage> =>
  api().get<MessagePage>(`/messages/${encodeURIComponent(ticketUuid)}`, {
    ...options,
    query: { pageNumber, selectedQueues: selectedQueues.length > 0 ? JSON.stringify(selectedQueues) : undefined },
  });

/** What the composer sends as JSON (the app adds `fromMe` and `read`, as the spec's client does). */
export type TextMessageInput = Omit<SendMessageBody, 'fromMe' | 'read'>;

/** POST /messages/{ticketId} as JSON: a text (optionally quoting, private, a contact card, or a stored upload). */
export const sendTextMessage = (ticketId: number, input: TextMessageInput): Promise<Message> =>
  api().post<Message>(`/messages/${ticketId}`, { ...input, fromMe: true, read: 1 } satisfies SendMessageBody);

/** Files above this go to S3 through a presigned PUT; smaller ones as the spec's multipart (decisions D51, D72). */
export const PRESIGNED_UPLOAD_MIN_BYTES = 1024 * 1024;

/** POST /messages/uploads/{ticketId} {filename, contentType, size}: a presigned PUT for one file (up to 100 MB). */
export const createMessageUpload = (ticketId: number, input: CreateMessageUploadBody): Promise<MessageUpload> =>
  api().post<MessageUpload>(`/messages/uploads/${ticketId}`, input);

/** The upload's PUT failed (S3 answered no 2xx, or the network failed). */
export class UploadFailed extends Error {
  constructor(readonly status: number) {
    super(`upload failed (${status})`);
    this.name = 'UploadFailed';
  }
}

/** PUTs the bytes to the presigned URL with exactly the headers the server signed. */
export const putUpload = async (
  upload: Pick<MessageUpload, 'uploadUrl' | 'method' | 'headers'>,
  file: Blob,
): Promise<void> => {
  let status = 0;
  try {
    const answer = await fetch(upload.uploadUrl, { method: upload.method, headers: upload.headers, body: file });
    status = answer.status;
  } catch {
    throw new UploadFailed(0);
  }
  if (status < 200 || status >= 300) throw new UploadFailed(status);
};

/**
 * One file into the ticket, with its own caption as `body` (the media preview has a caption per file, core
 * spec §2): over PRESIGNED_UPLOAD_MIN_BYTES through the presigned route (the file goes straight to S3, then
 * `{mediaKey}` is sent), else as the spec's multipart POST /messages/{ticketId}.
 */
export const sendMediaMessage = async (
  ticketId: number,
  file: Blob,
  filename: string,
  caption: string,
  isPrivate = false,
): Promise<Message> => {
  if (file.size > PRESIGNED_UPLOAD_MIN_BYTES) {
    const upload = await createMessageUpload(ticketId, {
      filename,
      contentType: file.type || 'application/octet-stream',
      size: file.size,
    });
    await putUpload(upload, file);
    return sendTextMessage(ticketId, { body: caption, mediaKey: upload.key, ...(isPrivate ? { isPrivate } : {}) });
  }
  const form = new FormData();
  form.append('medias', file, filename);
  form.append('body', caption);
  form.append('fromMe', 'true');
  form.append('isPrivate', String(isPrivate));
  return api().post<Message>(`/messages/${ticketId}`, form);
};

/** POST /messages/edit/{id} {body}: own messages, within 15 minutes (core spec §4). */
export const editMessage = (id: string, body: string): Promise<Message> =>
  api().post<Message>(`/messages/edit/${encodeURIComponent(id)}`, { body } satisfies EditMessageBody);

/** DELETE /messages/{id}: own messages only. */
export const deleteMessage = async (id: string): Promise<void> => {
  await api().delete<unknown>(`/messages/${encodeURIComponent(id)}`);
};

/** POST /message/forward {messageId, contactId, signMessage}. */
export const forwardMessage = async (messageId: string, contactId: number, signMessage: boolean): Promise<void> => {
  await api().post<unknown>('/message/forward', { messageId, contactId, signMessage } satisfies ForwardMessageBody);
};

/** Core spec §7: about 900 ms between forwards. */
export const FORWARD_PAUSE_MS = 900;

/** GET /messages/transcribeAudio/{file}: the text of an audio message, named by its id. */
export const transcribeAudio = async (messageId: string, options: CallOptions = {}): Promise<string> => {
  const answer = await api().get<Partial<TranscriptionAnswer>>(
    `/messages/transcribeAudio/${encodeURIComponent(messageId)}`,
    options,
  );
  return answer.transcribedText ?? '';
};

export type ButtonMessageKind = 'lista' | 'copy' | 'call' | 'URL' | 'PIX';

/** POST /messages/{kind}/{ticketId}: an interactive button message (list, copy, call-me, URL, PIX). */
export const sendButtonMessage = (kind: ButtonMessageKind, ticketId: number, payload: object): Promise<unknown> =>
  api().post<unknown>(`/messages/${kind}/${ticketId}`, payload);
