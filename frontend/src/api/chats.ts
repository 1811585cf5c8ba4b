import type { ChatMessagePage, ChatMessageView, ChatPage, ChatView } from '@contracts/chats';
import { api } from './transport';

/**
 * Internal chat (administration spec "Internal chat"; server: functions/http/chats; decisions D145). Only the
 * chat's members see it; only its owner edits or deletes it. Chat calls fail silently in the spec's screens
 * (§8): the callers here decide what to show.
 */
export type Chat = ChatView;
export type ChatMessage = ChatMessageView;
export type { ChatPage, ChatMessagePage };

interface CallOptions {
  signal?: AbortSignal;
}

const path = (id: number | string) => `/chats/${encodeURIComponent(String(id))}`;

/** GET /chats {searchParam, pageNumber, cursor}: the caller's chats, most recently active first. */
export const listChats = (
  query: { searchParam?: string; pageNumber?: number; cursor?: string } = {},
  options: CallOptions = {},
): Promise<ChatPage> =>
  api().get<ChatPage>('/chats', {
    ...options,
    query: { searchParam: query.searchParam || undefined, pageNumber: query.pageNumber, cursor: query.cursor },
  });

/** GET /chats/{id}: by id or by the uuid of `/chats/{uuid}`. */
export const getChat = (idOrUuid: number | string, options: CallOptions = {}): Promise<Chat> =>
  api().get<Chat>(path(idOrUuid), options);

export const createChat = (input: { title: string; users: { id: number; name: string }[] }): Promise<Chat> =>
  api().post<Chat>('/chats', input);

export const updateChat = (
  id: number,
  input: { title: string; users: { id: number; name: string }[] },
): Promise<Chat> => api().put<Chat>(path(id), input);

export const deleteChat = (id: number): Promise<{ message: string }> => api().delete<{ message: string }>(path(id));

/** GET /chats/{id}/messages {pageNumber, cursor}: newest first. */
export const listChatMessages = (
  id: number,
  query: { cursor?: string } = {},
  options: CallOptions = {},
): Promise<ChatMessagePage> =>
  api().get<ChatMessagePage>(`${path(id)}/messages`, { ...options, query: { cursor: query.cursor } });

export const sendChatMessage = (id: number, message: string): Promise<ChatMessage> =>
  api().post<ChatMessage>(`${path(id)}/messages`, { message });

/** POST /chats/{id}/read {userId}: the caller's unread count goes to 0. */
export const markChatRead = (id: number, userId: number): Promise<Chat> =>
  api().post<Chat>(`${path(id)}/read`, { userId });

/** The caller's unread messages in a chat. */
export const unreadsOf = (chat: Chat, userId: number): number =>
  chat.users.find((u) => u.userId === userId)?.unreads ?? 0;
