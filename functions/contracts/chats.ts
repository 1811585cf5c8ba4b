import * as z from 'zod';

/**
 * Internal chat on the wire (administration spec "Internal chat", §3 Internal chat and Chat message, §5, §6,
 * §7; decisions D145). Shared by functions/http/chats, functions/core/chats and frontend/src/api/chats.ts.
 */
export interface ChatMemberView {
  userId: number;
  /** Messages this member has not read yet. */
  unreads: number;
  user: { id: number; name: string };
}

export interface ChatView {
  id: number;
  uuid: string;
  title: string;
  ownerId: number;
  lastMessage: string;
  updatedAt: string;
  createdAt: string;
  users: ChatMemberView[];
}

export interface ChatMessageView {
  id: string;
  chatId: number;
  senderId: number;
  sender: { id: number; name: string };
  message: string;
  createdAt: string;
}

/** GET /chats: the caller's chats, most recently active first. */
export interface ChatPage {
  records: ChatView[];
  hasMore: boolean;
  nextCursor?: string;
}

/** GET /chats/{id}/messages: newest first. */
export interface ChatMessagePage {
  records: ChatMessageView[];
  hasMore: boolean;
  nextCursor?: string;
}

/** A chat holds its owner and at most this many other members (each message updates every member). */
export const MAX_CHAT_MEMBERS = 50;
export const MAX_CHAT_TITLE = 100;
export const MAX_CHAT_MESSAGE = 4000;

/** The spec's picker sends users as objects ({id, name}); plain ids are taken too. */
const userRef = z.union([
  z.number().int().positive(),
  z.object({ id: z.coerce.number().int().positive() }).transform((u) => u.id),
]);
const users = z
  .array(userRef, { error: 'Required: at least one user' })
  .min(1, 'Choose at least one user')
  .max(MAX_CHAT_MEMBERS, `At most ${MAX_CHAT_MEMBERS} users`);
const title = z
  .string({ error: 'Required' })
  .trim()
  .min(1, 'Required')
  .max(MAX_CHAT_TITLE, `At most ${MAX_CHAT_TITLE} characters`);

/** POST /chats and PUT /chats/{id} (administration §5: a title and at least one user). */
export const chatBody = z.object({ users, title });
export type ChatBody = z.input<typeof chatBody>;

/** POST /chats/{id}/messages: never blank (administration §5). */
export const chatMessageBody = z.object({
  message: z
    .string({ error: 'Required' })
    .max(MAX_CHAT_MESSAGE, `At most ${MAX_CHAT_MESSAGE} characters`)
    .refine((m) => m.trim().length > 0, 'Required: not blank'),
});
