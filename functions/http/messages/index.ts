import * as z from 'zod';
import type { ZodType } from 'zod';
import { BadRequest, ValidationError, type FieldError } from '../../shared/errors';
import {
  callContent,
  callSchema,
  copyContent,
  copySchema,
  listContent,
  listSchema,
  pixContent,
  pixSchema,
  urlContent,
  urlSchema,
  type InteractiveContent,
} from '../../core/messages/interactive';
import {
  countMessages,
  createUpload,
  deleteMessage,
  editMessage,
  forwardMessage,
  listMessages,
  MAX_MULTIPART_BYTES,
  sendInteractive,
  sendMedia,
  sendMessage,
  transcribe,
  type MultipartFile,
} from '../../core/messages/message-service';
import {
  createMessageUploadBody,
  editMessageBody,
  flag,
  forwardMessageBody,
  sendMessageBody,
} from '../../contracts/messages';
import { pagingQuery } from '../../core/paging';
import { createAreaHandler, defineRoute, respond, type AreaHandlers, type HttpEvent } from '../stack';
import { externalHandlers } from './external';

/**
 * The messages area (core spec §7 Messages; decisions D50–D54): thin handlers over
 * functions/core/messages/message-service.ts.
 */
const ticketIdParam = z.object({ ticketId: z.coerce.number().int().positive() });
const idParam = z.object({ id: z.string().min(1).max(64) });
/** Button messages need a numeric ticket id (core §5: 'Ticket ID invalid'). */
const buttonTicketParam = z.object({
  id: z
    .string()
    .regex(/^\d{1,12}$/, 'Ticket ID invalid')
    .transform(Number)
    .pipe(z.number().int().positive('Ticket ID invalid')),
});

const fieldErrors = (error: z.ZodError): FieldError[] =>
  error.issues.map((i) => ({ field: ['body', ...i.path.map(String)].join('.'), reason: i.message }));

const parseWith = <T>(schema: ZodType<T>, value: unknown): T => {
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(fieldErrors(result.error));
  return result.data;
};

const contentTypeOf = (event: HttpEvent): string => (event.headers?.['content-type'] ?? '').toLowerCase();

/** The spec's multipart send, read here (repeated `medias` and `body` parts are kept, in order). */
const readForm = async (raw: Buffer, contentType: string): Promise<FormData> => {
  try {
    return await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new BadRequest('ERR_MALFORMED_BODY', 'Malformed multipart body', [
      { field: 'body', reason: 'not valid multipart/form-data' },
    ]);
  }
};

const mediaKeyOf = (mediaKey: string | undefined, mediaUrl: string | null | undefined): string | undefined => {
  if (mediaKey) return mediaKey;
  if (!mediaUrl) return undefined;
  const at = mediaUrl.indexOf('/media/');
  if (at < 0) throw new ValidationError([{ field: 'body.mediaUrl', reason: 'send files with mediaKey or multipart' }]);
  return decodeURIComponent(mediaUrl.slice(at + '/media/'.length).split('?')[0]!);
};

const interactive = <T>(schema: ZodType<T>, build: (value: T) => InteractiveContent) =>
  defineRoute({
    params: buttonTicketParam,
    body: z.unknown(),
    handle: async ({ auth, params, body }) =>
      respond(201, (await sendInteractive(auth!, params.id, build(parseWith(schema, body ?? {})))).message),
  });

/** `selectedQueues`: a JSON list of queue ids (`[1,2]`) or a comma list (`1,2`). */
const queueList = z
  .string()
  .max(2000)
  .transform((s, ctx) => {
    const trimmed = s.trim();
    try {
      const parsed: unknown = trimmed.startsWith('[')
        ? JSON.parse(trimmed)
        : trimmed === ''
          ? []
          : trimmed.split(',').map((x) => Number(x));
      return z.array(z.number().int().positive()).max(100).parse(parsed);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a list of queue ids' });
      return z.NEVER;
    }
  });

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}/, 'must be a date (yyyy-mm-dd)')
  .transform((s) => s.slice(0, 10));

export const handlers: AreaHandlers = {
  'list-messages': defineRoute({
    params: z.object({ ticketUuid: z.string().min(1).max(64) }),
    query: z.object({ ...pagingQuery, selectedQueues: queueList.optional() }),
    handle: async ({ auth, params, query }) => listMessages(auth!, params.ticketUuid, query),
  }),
  // JSON {body, isPrivate, quotedMsg, vCard, mediaKey|mediaUrl} or multipart {medias, body, isPrivate}.
  'send-message': defineRoute({
    params: ticketIdParam,
    bodyType: 'raw',
    maxBodyBytes: MAX_MULTIPART_BYTES,
    body: z.instanceof(Buffer).optional(),
    handle: async ({ auth, params, body, event }) => {
      const type = contentTypeOf(event);
      if (type.startsWith('multipart/form-data')) {
        const form = await readForm(body ?? Buffer.alloc(0), event.headers?.['content-type'] ?? '');
        const files: MultipartFile[] = [];
        for (const part of form.getAll('medias')) {
          if (typeof part === 'string') continue;
          files.push({ filename: part.name, bytes: Buffer.from(await part.arrayBuffer()) });
        }
        if (files.length === 0)
          throw new ValidationError([{ field: 'body.medias', reason: 'Required: at least one file' }]);
        if (files.length > 10) throw new ValidationError([{ field: 'body.medias', reason: 'at most 10 files' }]);
        const fields = parseWith(
          z.object({ isPrivate: flag.default(false), quotedMsg: z.string().max(64).optional() }),
          { isPrivate: form.get('isPrivate') ?? undefined, quotedMsg: form.get('quotedMsg') ?? undefined },
        );
        const bodies = form.getAll('body').map((b) => (typeof b === 'string' ? b : ''));
        const sent = await sendMedia(auth!, params.ticketId, {
          files,
          bodies,
          isPrivate: fields.isPrivate,
          quotedMsgId: fields.quotedMsg || undefined,
        });
        // One file (what the app sends: one request per file, its caption as `body`): the message; several: the list.
        return respond(201, sent.length === 1 ? sent[0]!.message : sent.map((s) => s.message));
      }
      if (type !== '' && !type.includes('json')) {
        throw new BadRequest('ERR_UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be JSON or multipart/form-data', [
          { field: 'headers.content-type', reason: 'expected application/json or multipart/form-data' },
        ]);
      }
      let json: unknown = {};
      if (body && body.length > 0) {
        try {
          json = JSON.parse(body.toString('utf8'));
        } catch {
          throw new BadRequest('ERR_MALFORMED_JSON', 'Malformed JSON body', [
            { field: 'body', reason: 'not valid JSON' },
          ]);
        }
      }
      const input = parseWith(sendMessageBody, json);
      const sent = await sendMessage(auth!, params.ticketId, {
        body: input.body,
        isPrivate: input.isPrivate,
        quotedMsgId: input.quotedMsg,
        mediaKey: mediaKeyOf(input.mediaKey, input.mediaUrl),
        vCard: input.vCard,
      });
      return respond(201, sent.message);
    },
  }),
  'create-message-upload': defineRoute({
    params: ticketIdParam,
    body: createMessageUploadBody,
    handle: async ({ auth, params, body }) => respond(201, await createUpload(auth!, params.ticketId, body)),
  }),
  'edit-message': defineRoute({
    params: idParam,
    body: editMessageBody,
    handle: async ({ auth, params, body }) => editMessage(auth!, params.id, body.body),
  }),
  'delete-message': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => deleteMessage(auth!, params.id),
  }),
  'forward-message': defineRoute({
    body: forwardMessageBody,
    handle: async ({ auth, body }) => respond(201, await forwardMessage(auth!, body)),
  }),
  'transcribe-audio': defineRoute({
    params: z.object({ file: z.string().min(1).max(1024) }),
    // Failures answer the spec's "error": the error body's `error` code (502 when OpenAI refused).
    handle: async ({ auth, params }) => transcribe(auth!, params.file),
  }),
  'send-list-message': interactive(listSchema, listContent),
  'send-copy-message': interactive(copySchema, copyContent),
  'send-call-message': interactive(callSchema, callContent),
  'send-url-message': interactive(urlSchema, urlContent),
  'send-pix-message': interactive(pixSchema, pixContent),
  'count-messages': defineRoute({
    query: z.object({
      fromMe: flag.default(true),
      dateStart: day,
      dateEnd: day,
    }),
    handle: async ({ auth, query }) => countMessages(auth!, query),
  }),
  ...externalHandlers,
};

export const handler = createAreaHandler('messages', handlers);
