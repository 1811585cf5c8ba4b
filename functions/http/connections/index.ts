import * as z from 'zod';
import {
  createCompanyConnection,
  deleteCompanyConnection,
  deleteGreetingMedia,
  disconnectAnyConnectionSession,
  disconnectConnectionSession,
  listCompanyConnections,
  listEveryConnection,
  renewConnectionQrCode,
  restartCompanyConnections,
  scanSimulatorQrCode,
  showAnyConnection,
  showConnection,
  startConnectionSession,
  updateCompanyConnection,
  uploadGreetingMedia,
} from '../../core/connections/connection-service';
import {
  listSimulatorReceived,
  simulateCustomerMessage,
  simulateCustomerRead,
  setSimulatorHistory,
  SIMULATOR_HISTORY_MAX,
} from '../../core/connections/simulator-service';
import { closeImportedTickets } from '../../core/connections/message-import';
import { connectCloudApiNumber, connectFacebookPages } from '../../core/connections/meta-connections';
import { metaGraphAccess } from '../../channels/meta/meta-access';
import { receiveMetaWebhook, verifyMetaWebhook } from '../../channels/meta/webhook-service';
import { pagingQuery } from '../../core/paging';
import {
  createAreaHandler,
  defineRoute,
  isUploadedFile,
  respond,
  type AreaHandlers,
  type UploadedFile,
} from '../stack';

/**
 * Connections (core spec §7 "Connections"). Reads are open to the company's users; every change is for
 * connection managers (admins, super, `allowConnections` users), which the service checks. The spec's
 * `session` query (`session=0`: without the session) is accepted and changes nothing: session and auth
 * state never leave the server. `companyId` on GET /whatsapp is accepted too; the list is always the
 * caller's company.
 */
const name = z.string({ error: 'Required' }).trim().min(2, 'Too Short!').max(50, 'Too Long!');
const text = z.string().max(4096);
const time = z.union([z.literal(''), z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM')]);
const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, 'must be a date (YYYY-MM-DD)')
  .refine((s) => !Number.isNaN(Date.parse(s)), 'must be a valid date');
/** Empty, null or a date; empty means none (the reference form sends '' for an unset date). */
const optionalDate = z.union([z.literal('').transform(() => null), z.null(), date]);
/** Whole numbers; the reference form sends some as strings ('' meaning 0). */
const count = (max: number) =>
  z.preprocess(
    (v) => (v === '' || v === null ? 0 : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ error: 'must be a whole number' }).int('must be a whole number').min(0).max(max),
  );
const reference = z.preprocess(
  (v) => (v === '' || v === 0 || v === '0' ? null : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
  z.number().int().positive().nullable(),
);
const MINUTES_IN_A_YEAR = 525_600;

const schedule = z.object({
  weekday: z.string().trim().min(1).max(20),
  weekdayEn: z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']),
  startTimeA: time,
  endTimeA: time,
  startTimeB: time,
  endTimeB: time,
});

const connectionFields = {
  name,
  channel: z.enum(['whatsapp', 'facebook', 'instagram'], { error: 'must be whatsapp, facebook or instagram' }),
  isDefault: z.boolean(),
  queueIds: z
    .array(z.number().int().positive())
    .max(100)
    .refine((ids) => new Set(ids).size === ids.length, 'must not repeat a queue'),
  schedules: z
    .array(schedule)
    .max(7)
    .refine((s) => new Set(s.map((d) => d.weekdayEn)).size === s.length, 'one entry per weekday'),
  greetingMessage: text,
  complationMessage: text,
  outOfHoursMessage: text,
  ratingMessage: text,
  sendIdQueue: reference,
  timeSendQueue: count(MINUTES_IN_A_YEAR),
  maxUseBotQueues: count(100),
  maxUseBotQueuesNPS: count(100),
  timeUseBotQueues: count(MINUTES_IN_A_YEAR),
  provider: z.enum(['beta', 'stable']),
  expiresTicket: count(MINUTES_IN_A_YEAR),
  expiresTicketNPS: count(MINUTES_IN_A_YEAR),
  expiresInactiveMessage: text,
  timeInactiveMessage: count(MINUTES_IN_A_YEAR),
  inactiveMessage: text,
  whenExpiresTicket: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.enum(['0', '1'])),
  timeCreateNewTicket: count(MINUTES_IN_A_YEAR),
  allowGroup: z.boolean(),
  groupAsTicket: z.enum(['enabled', 'disabled']),
  importOldMessages: optionalDate,
  importRecentMessages: optionalDate,
  importOldMessagesGroups: z.boolean(),
  closedTicketsPostImported: z.boolean(),
  collectiveVacationStart: optionalDate,
  collectiveVacationEnd: optionalDate,
  collectiveVacationMessage: text,
  integrationId: reference,
  promptId: reference,
  flowIdWelcome: reference,
  flowIdNotPhrase: reference,
};

const idParam = z.object({ id: z.coerce.number().int().positive() });
const sessionQuery = { session: z.string().max(10).optional() };
const channelQuery = z.enum(['whatsapp', 'facebook', 'instagram', 'whatsappapi']).optional();

/** A file part of a multipart body; any other value (a text part, nothing) is the reason named. */
const filePart = z.custom<UploadedFile>(isUploadedFile, { error: 'Required: a file' });

const simulatorParams = z.object({ whatsappId: z.coerce.number().int().positive() });
const customerNumber = z.string().regex(/^\d{8,15}$/, 'digits with country code');
const groupId = z.string().regex(/^\d{5,40}(-\d{5,20})?$/, 'a group id (digits)');
const simulatedMessage = z.object({
  number: customerNumber,
  name: z.string().trim().max(100).optional(),
  groupId: groupId.optional(),
  groupName: z.string().trim().max(100).optional(),
  body: z.string().max(4096).optional(),
  reactTo: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,200}$/)
    .optional(),
  emoji: z.string().max(32).optional(),
  quotedProviderMessageId: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,200}$/)
    .optional(),
});

export const handlers: AreaHandlers = {
  'list-connections': defineRoute({
    query: z.object({ ...sessionQuery, companyId: z.coerce.number().int().positive().optional() }),
    handle: async ({ auth }) => listCompanyConnections(auth!),
  }),
  'filter-connections': defineRoute({
    query: z.object({ ...sessionQuery, channel: channelQuery }),
    handle: async ({ auth, query }) => listCompanyConnections(auth!, { channel: query.channel }),
  }),
  'list-all-connections': defineRoute({
    query: z.object({ ...sessionQuery, ...pagingQuery }),
    handle: async ({ auth, query }) => listEveryConnection(auth!, query),
  }),
  'get-connection': defineRoute({
    params: idParam,
    query: z.object(sessionQuery),
    handle: async ({ auth, params }) => showConnection(auth!, params.id),
  }),
  'get-any-connection': defineRoute({
    params: idParam,
    query: z.object(sessionQuery),
    handle: async ({ auth, params }) => showAnyConnection(auth!, params.id),
  }),
  'create-connection': defineRoute({
    body: z.object(connectionFields).partial().required({ name: true }),
    handle: async ({ auth, body }) => respond(201, await createCompanyConnection(auth!, body)),
  }),
  'update-connection': defineRoute({
    params: idParam,
    body: z.object(connectionFields).partial(),
    handle: async ({ auth, params, body }) => updateCompanyConnection(auth!, params.id, body),
  }),
  'delete-connection': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => {
      await deleteCompanyConnection(auth!, params.id);
      return { message: 'Whatsapp deleted.' };
    },
  }),
  // The spec's multipart form with `file` (the greeting attachment); answers the connection.
  'upload-connection-media': defineRoute({
    params: idParam,
    bodyType: 'multipart',
    maxBodyBytes: 3 * 1024 * 1024,
    body: z.object({ file: filePart }, { error: 'Required: a multipart form with file' }),
    handle: async ({ auth, params, body }) => uploadGreetingMedia(auth!, params.id, body.file),
  }),
  'delete-connection-media': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => deleteGreetingMedia(auth!, params.id),
  }),
  'start-connection-session': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => ({
      message: 'Starting session.',
      whatsapp: await startConnectionSession(auth!, params.id),
    }),
  }),
  'renew-connection-qrcode': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => ({
      message: 'Starting session.',
      whatsapp: await renewConnectionQrCode(auth!, params.id),
    }),
  }),
  'disconnect-connection-session': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => ({
      message: 'Session disconnected.',
      whatsapp: await disconnectConnectionSession(auth!, params.id),
    }),
  }),
  'disconnect-any-connection-session': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => ({
      message: 'Session disconnected.',
      whatsapp: await disconnectAnyConnectionSession(auth!, params.id),
    }),
  }),
  'restart-connections': defineRoute({
    handle: async ({ auth }) => ({ message: 'Whatsapp restart.', ...(await restartCompanyConnections(auth!)) }),
  }),
  // The browser's Facebook login gives a short-lived user token and the user's id, or `me` when the login
  // was the OAuth popup, which answers no id (decisions D40, D81).
  'connect-facebook-pages': defineRoute({
    body: z.object({
      facebookUserId: z
        .union([z.string(), z.number()])
        .transform(String)
        .pipe(z.string().regex(/^(\d{1,40}|me)$/, 'must be a Facebook user id or me')),
      facebookUserToken: z.string({ error: 'Required' }).min(10, 'Too Short!').max(4096, 'Too Long!'),
      addInstagram: z.boolean().default(false),
    }),
    handle: async ({ auth, body }) => connectFacebookPages(auth!, body, metaGraphAccess),
  }),
  // Meta's webhook handshake: echo hub.challenge as text when hub.verify_token is ours.
  'verify-meta-webhook': defineRoute({
    query: z.object({
      'hub.mode': z.string().max(50).optional(),
      'hub.verify_token': z.string().max(500).optional(),
      'hub.challenge': z.string().max(500).optional(),
    }),
    handle: async ({ query }) => respond(200, undefined, { text: verifyMetaWebhook(query) }),
  }),
  // Meta's events, signed over the exact bytes (X-Hub-Signature-256): the body stays raw until checked.
  'receive-meta-webhook': defineRoute({
    bodyType: 'raw',
    maxBodyBytes: 1024 * 1024,
    body: z.custom<Buffer | undefined>((v) => v === undefined || Buffer.isBuffer(v)),
    handle: async ({ body, event }) => {
      await receiveMetaWebhook(body, event.headers?.['x-hub-signature-256']);
      return { received: true };
    },
  }),
  'scan-simulator-qrcode': defineRoute({
    params: z.object({ whatsappId: z.coerce.number().int().positive() }),
    handle: async ({ auth, params }) => ({
      message: 'QR code scanned.',
      whatsapp: await scanSimulatorQrCode(auth!, params.whatsappId),
    }),
  }),
  // The phone simulator's customer side (decisions D41): a text or a reaction (JSON) …
  'simulate-customer-message': defineRoute({
    params: simulatorParams,
    body: simulatedMessage,
    handle: async ({ auth, params, body }) => ({
      message: 'Message sent by the simulated customer.',
      ...(await simulateCustomerMessage(auth!, params.whatsappId, body)),
    }),
  }),
  // … or a file with an optional caption (a multipart form with `file`, at most 3 MB).
  'simulate-customer-media': defineRoute({
    params: simulatorParams,
    bodyType: 'multipart',
    maxBodyBytes: 3 * 1024 * 1024 + 64 * 1024,
    body: simulatedMessage.extend({ file: filePart }),
    handle: async ({ auth, params, body }) => ({
      message: 'File sent by the simulated customer.',
      ...(await simulateCustomerMessage(auth!, params.whatsappId, body, body.file)),
    }),
  }),
  'list-simulator-received': defineRoute({
    params: simulatorParams,
    query: z.object({
      cursor: z
        .string()
        .regex(/^R#[0-9A-Z]{26}$/)
        .optional(),
      limit: z.coerce.number().int().min(1).max(100).optional(),
      number: customerNumber.optional(),
    }),
    handle: async ({ auth, params, query }) => listSimulatorReceived(auth!, params.whatsappId, query),
  }),
  'connect-cloud-api-number': defineRoute({
    body: z.object({
      name: name.optional(),
      phoneNumberId: z.string({ error: 'Required' }).regex(/^\d{5,30}$/, 'must be the phone number id (digits)'),
      accessToken: z
        .string({ error: 'Required' })
        .trim()
        .min(20, 'Too Short!')
        .max(4096, 'Too Long!')
        .regex(/^[\w.|-]+$/, 'must be an access token'),
      businessAccountId: z
        .string()
        .regex(/^\d{5,30}$/, 'must be the WhatsApp Business Account id (digits)')
        .optional(),
    }),
    handle: async ({ auth, body }) => respond(201, await connectCloudApiNumber(auth!, body, metaGraphAccess)),
  }),
  'close-imported-tickets': defineRoute({
    params: z.object({ id: z.coerce.number().int().positive() }),
    handle: async ({ auth, params }) => closeImportedTickets(auth!, params.id),
  }),
  'set-simulator-history': defineRoute({
    params: simulatorParams,
    body: z.object({
      messages: z
        .array(
          z.object({
            number: customerNumber,
            name: z.string().trim().min(1).max(100).optional(),
            group: z.object({ id: groupId, name: z.string().trim().min(1).max(100).optional() }).optional(),
            fromMe: z.boolean().optional(),
            body: z.string().min(1, 'Required').max(1_000, 'Too Long!'),
            at: z.iso.datetime({ offset: true, error: 'must be an ISO date-time' }),
          }),
        )
        .max(SIMULATOR_HISTORY_MAX, `at most ${SIMULATOR_HISTORY_MAX} messages`),
    }),
    handle: async ({ auth, params, body }) => ({
      message: 'History set on the simulated phone.',
      ...(await setSimulatorHistory(auth!, params.whatsappId, body.messages)),
    }),
  }),
  'simulate-customer-read': defineRoute({
    params: simulatorParams,
    body: z.object({
      number: customerNumber.optional(),
      groupId: groupId.optional(),
      ack: z.union([z.literal(3), z.literal(4)]).optional(),
    }),
    handle: async ({ auth, params, body }) => {
      await simulateCustomerRead(auth!, params.whatsappId, body);
      return { message: 'Read by the simulated customer.' };
    },
  }),
};

export const handler = createAreaHandler('connections', handlers);
