import * as z from 'zod';
import {
  sendExternalMessage,
  type ExternalFile,
  type ExternalSendInput,
} from '../../core/external-api/external-message-service';
import { MAX_MULTIPART_BYTES } from '../../core/messages/message-service';
import { BadRequest, ValidationError } from '../../shared/errors';
import { bearerToken } from '../authenticate';
import { defineRoute, type AreaHandlers } from '../stack';

/**
 * The external messages API's send (administration spec "External messages API"; decisions D123): JSON
 * `{number, body, userId?, queueId?}` or multipart with `medias` (one or more files) and the same fields.
 * The route is public to the JWT stack: the bearer is the connection's token, checked by the service
 * before anything else is looked at; then the fields, each a 400 with field and reason.
 */
const optionalId = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.coerce.number({ error: 'must be a number' }).int().positive().optional(),
);
const fields = z.object({
  number: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string({ error: 'Required' }).trim()),
  body: z.string().max(65_536, 'Too Long!').default(''),
  userId: optionalId,
  queueId: optionalId,
});

const malformed = (reason: string) =>
  new BadRequest('ERR_MALFORMED_BODY', 'Malformed body', [{ field: 'body', reason }]);

/** JSON or multipart, by the request's content type (the spec's two forms of the one call). */
const parseSend = async (raw: Buffer | undefined, contentType: string): Promise<ExternalSendInput> => {
  if (!raw || raw.length === 0) throw malformed('a JSON or multipart/form-data body is required');
  let values: Record<string, unknown>;
  const medias: ExternalFile[] = [];
  if (contentType.toLowerCase().startsWith('multipart/form-data')) {
    let form: FormData;
    try {
      form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
    } catch {
      throw malformed('not valid multipart/form-data');
    }
    values = {};
    for (const [name, value] of form) {
      if (typeof value === 'string') values[name] = value;
      else if (name === 'medias') medias.push({ filename: value.name, bytes: Buffer.from(await value.arrayBuffer()) });
    }
  } else if (contentType.toLowerCase().includes('json')) {
    try {
      values = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    } catch {
      throw new BadRequest('ERR_MALFORMED_JSON', 'Malformed JSON body', [{ field: 'body', reason: 'not valid JSON' }]);
    }
    if (typeof values !== 'object' || values === null || Array.isArray(values)) throw malformed('not a JSON object');
  } else {
    throw new BadRequest('ERR_UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json or multipart/form-data', [
      { field: 'headers.content-type', reason: 'expected application/json or multipart/form-data' },
    ]);
  }
  const parsed = fields.safeParse(values);
  if (!parsed.success) {
    throw new ValidationError(
      parsed.error.issues.map((i) => ({ field: ['body', ...i.path.map(String)].join('.'), reason: i.message })),
    );
  }
  return { ...parsed.data, medias };
};

export const externalHandlers: AreaHandlers = {
  'send-external-message': defineRoute({
    bodyType: 'raw',
    maxBodyBytes: MAX_MULTIPART_BYTES,
    handle: async ({ event, body }) => {
      const token = bearerToken(event);
      const input = await parseSend(body as Buffer | undefined, event.headers?.['content-type'] ?? '');
      return sendExternalMessage(token, input);
    },
  }),
};
