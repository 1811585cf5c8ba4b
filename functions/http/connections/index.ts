import * as z from 'zod';
import {
  connectCloudApiBody,
  connectFacebookBody,
  createConnectionBody,
  updateConnectionBody,
  type ConnectionView,
  type SessionAnswer,
} from '../../contracts/connections';
import {
  customerNumber,
  groupId,
  simulatedMessageBody,
  simulatedReadBody,
  simulatorChatQuery,
  type SimulatedMessageAnswer,
} from '../../contracts/simulator';
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
  setSimulatorAddressBook,
  setSimulatorHistory,
  SIMULATOR_CONTACTS_MAX,
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
 * caller's company. The bodies an admin sends are the wire contract's (functions/contracts/connections.ts).
 */
const idParam = z.object({ id: z.coerce.number().int().positive() });
/** The session actions' answer: a message and the connection in its waiting status. */
const sessionAnswer = async (message: string, whatsapp: Promise<ConnectionView>): Promise<SessionAnswer> => ({
  message,
  whatsapp: await whatsapp,
});
const sessionQuery = { session: z.string().max(10).optional() };
const channelQuery = z.enum(['whatsapp', 'facebook', 'instagram', 'whatsappapi']).optional();

/** A file part of a multipart body; any other value (a text part, nothing) is the reason named. */
const filePart = z.custom<UploadedFile>(isUploadedFile, { error: 'Required: a file' });

const simulatorParams = z.object({ whatsappId: z.coerce.number().int().positive() });
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
    body: createConnectionBody,
    handle: async ({ auth, body }) => respond(201, await createCompanyConnection(auth!, body)),
  }),
  'update-connection': defineRoute({
    params: idParam,
    body: updateConnectionBody,
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
    handle: async ({ auth, params }) => sessionAnswer('Starting session.', startConnectionSession(auth!, params.id)),
  }),
  'renew-connection-qrcode': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => sessionAnswer('Starting session.', renewConnectionQrCode(auth!, params.id)),
  }),
  'disconnect-connection-session': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) =>
      sessionAnswer('Session disconnected.', disconnectConnectionSession(auth!, params.id)),
  }),
  'disconnect-any-connection-session': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) =>
      sessionAnswer('Session disconnected.', disconnectAnyConnectionSession(auth!, params.id)),
  }),
  'restart-connections': defineRoute({
    handle: async ({ auth }) => ({ message: 'Whatsapp restart.', ...(await restartCompanyConnections(auth!)) }),
  }),
  // The browser's Facebook login gives a short-lived user token and the user's id, or `me` when the login
  // was the OAuth popup, which answers no id (decisions D40, D81).
  'connect-facebook-pages': defineRoute({
    body: connectFacebookBody,
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
    handle: async ({ auth, params }) =>
      sessionAnswer('QR code scanned.', scanSimulatorQrCode(auth!, params.whatsappId)),
  }),
  // The phone simulator's customer side (decisions D41): a text or a reaction (JSON) …
  'simulate-customer-message': defineRoute({
    params: simulatorParams,
    body: simulatedMessageBody,
    handle: async ({ auth, params, body }): Promise<SimulatedMessageAnswer> => ({
      message: 'Message sent by the simulated customer.',
      ...(await simulateCustomerMessage(auth!, params.whatsappId, body)),
    }),
  }),
  // … or a file with an optional caption (a multipart form with `file`, at most 3 MB).
  'simulate-customer-media': defineRoute({
    params: simulatorParams,
    bodyType: 'multipart',
    maxBodyBytes: 3 * 1024 * 1024 + 64 * 1024,
    body: simulatedMessageBody.extend({ file: filePart }),
    handle: async ({ auth, params, body }): Promise<SimulatedMessageAnswer> => ({
      message: 'File sent by the simulated customer.',
      ...(await simulateCustomerMessage(auth!, params.whatsappId, body, body.file)),
    }),
  }),
  'list-simulator-received': defineRoute({
    params: simulatorParams,
    query: simulatorChatQuery,
    handle: async ({ auth, params, query }) => listSimulatorReceived(auth!, params.whatsappId, query),
  }),
  'connect-cloud-api-number': defineRoute({
    body: connectCloudApiBody,
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
  'set-simulator-contacts': defineRoute({
    params: simulatorParams,
    body: z.object({
      contacts: z
        .array(z.object({ number: customerNumber, name: z.string().trim().min(1).max(100).optional() }))
        .max(SIMULATOR_CONTACTS_MAX, `at most ${SIMULATOR_CONTACTS_MAX} contacts`),
    }),
    handle: async ({ auth, params, body }) => ({
      message: 'Address book set on the simulated phone.',
      ...(await setSimulatorAddressBook(auth!, params.whatsappId, body.contacts)),
    }),
  }),
  'simulate-customer-read': defineRoute({
    params: simulatorParams,
    body: simulatedReadBody,
    handle: async ({ auth, params, body }) => {
      await simulateCustomerRead(auth!, params.whatsappId, body);
      return { message: 'Read by the simulated customer.' };
    },
  }),
};

export const handler = createAreaHandler('connections', handlers);
