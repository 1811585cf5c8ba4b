import * as z from 'zod';
import { chatBody, chatMessageBody } from '../../contracts/chats';
import {
  createMyChat,
  deleteMyChat,
  listMessages,
  listMyChats,
  markRead,
  sendMessage,
  showChat,
  updateMyChat,
} from '../../core/chats/chat-service';
import { pagingQuery } from '../../core/paging';
import { createAreaHandler, defineRoute, respond, type AreaHandlers } from '../stack';

/** Internal chat (administration spec "Internal chat", §7; decisions D145). Bodies: functions/contracts/chats.ts. */
const idParam = z.object({ id: z.coerce.number().int().positive() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** `GET /chats/{id}` also takes the uuid of the page `/chats/{uuid}`. */
const idOrUuidParam = z.object({
  id: z.union([
    z.coerce.number().int().positive(),
    z
      .string()
      .regex(UUID, 'Must be a chat id or uuid')
      .transform((s) => s.toLowerCase()),
  ]),
});

export const handlers: AreaHandlers = {
  'list-chats': defineRoute({
    query: z.object({ ...pagingQuery, searchParam: z.string().trim().max(100).optional() }),
    handle: async ({ auth, query }) => listMyChats(auth!, query),
  }),
  'get-chat': defineRoute({
    params: idOrUuidParam,
    handle: async ({ auth, params }) => showChat(auth!, params.id),
  }),
  'create-chat': defineRoute({
    body: chatBody,
    handle: async ({ auth, body }) => respond(201, await createMyChat(auth!, body)),
  }),
  'update-chat': defineRoute({
    params: idParam,
    body: chatBody,
    handle: async ({ auth, params, body }) => updateMyChat(auth!, params.id, body),
  }),
  'delete-chat': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => {
      await deleteMyChat(auth!, params.id);
      return respond(200, { message: 'Chat deleted' });
    },
  }),
  'list-chat-messages': defineRoute({
    params: idParam,
    query: z.object(pagingQuery),
    handle: async ({ auth, params, query }) => listMessages(auth!, params.id, query),
  }),
  'send-chat-message': defineRoute({
    params: idParam,
    body: chatMessageBody,
    handle: async ({ auth, params, body }) => respond(201, await sendMessage(auth!, params.id, body)),
  }),
  // The spec sends {userId}: the reader is always the caller (decisions D145).
  'mark-chat-read': defineRoute({
    params: idParam,
    body: z.object({ userId: z.unknown().optional() }).optional(),
    handle: async ({ auth, params }) => markRead(auth!, params.id),
  }),
};

export const handler = createAreaHandler('chats', handlers);
