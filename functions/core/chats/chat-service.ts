import { randomUUID } from 'node:crypto';
import type { ChatMessagePage, ChatMessageView, ChatPage, ChatView } from '../../contracts/chats';
import type { ChannelAction } from '../../contracts/realtime';
import {
  chatNotFound,
  createChat,
  deleteChat,
  getChat,
  getChatIdByUuid,
  listChatMessages,
  listUserChats,
  markChatRead,
  postChatMessage,
  updateChat,
  type ChatMessage,
  type ChatWithMembers,
} from '../../data/chat-repository';
import { consistentGet } from '../../data/consistent-reads';
import { listUserNames, userKeys } from '../../data/user-repository';
import { listCompanyConnections } from '../../data/ws-connection-repository';
import type { AuthContext } from '../../shared/auth-context';
import { BadRequest, Forbidden } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import { BUSY, CHANGED_OR_BUSY, withRetry } from '../../shared/retry';
import { fetchPage, type PagingInput } from '../paging';
import { onlyUser, publishToConnections } from '../notifier';

/**
 * Internal chat (administration spec "Internal chat", §3, §5, §6, §7; decisions D145). A chat belongs to its
 * members, users of one company: only they see it, its messages and its events — to anybody else, the
 * company's admins included, it does not exist (404). Only its owner edits or deletes it (403
 * ERR_NO_PERMISSION for the other members). The plan flag useInternalChat gates every call (routes.ts).
 */
export const CHAT_PAGE_SIZE = 20;
export const CHAT_MESSAGE_PAGE_SIZE = 20;

type Names = Map<number, string>;
/** A chat event before its target (a member's list or the chat's pane) is set. */
type ChatEvent = { channel: 'chat'; action: ChannelAction<'chat'>; [payload: string]: unknown };
const namesOf = async (companyId: number): Promise<Names> =>
  new Map((await listUserNames(companyId)).map((u) => [u.id, u.name]));

export const toChatView = ({ chat, members }: ChatWithMembers, names: Names): ChatView => ({
  id: chat.id,
  uuid: chat.uuid,
  title: chat.title,
  ownerId: chat.ownerId,
  lastMessage: chat.lastMessage,
  updatedAt: chat.updatedAt,
  createdAt: chat.createdAt,
  users: members
    .map((m) => ({ userId: m.userId, unreads: m.unreads, user: { id: m.userId, name: names.get(m.userId) ?? '' } }))
    .sort((a, b) => a.userId - b.userId),
});

const toMessageView = (m: ChatMessage, names: Names): ChatMessageView => ({
  id: m.id,
  chatId: m.chatId,
  senderId: m.senderId,
  sender: { id: m.senderId, name: names.get(m.senderId) ?? '' },
  message: m.message,
  createdAt: m.createdAt,
});

const isMember = (c: ChatWithMembers, userId: number) => c.members.some((m) => m.userId === userId);

/** A chat the caller is a member of; 404 ERR_NO_CHAT_FOUND otherwise (another's chat does not exist for them). */
const findMine = async (auth: AuthContext, chatId: number): Promise<ChatWithMembers> => {
  const found = await getChat(auth.companyId, chatId);
  if (!found || !isMember(found, auth.userId)) throw chatNotFound();
  return found;
};

const findOwned = async (auth: AuthContext, chatId: number): Promise<ChatWithMembers> => {
  const found = await findMine(auth, chatId);
  if (found.chat.ownerId !== auth.userId) {
    throw new Forbidden('ERR_NO_PERMISSION', 'Only the owner of the chat may change or delete it');
  }
  return found;
};

/**
 * The members a create or an edit asks for, the owner always among them: each must be a user of the
 * caller's company (400 naming the unknown ids otherwise, nothing written).
 */
const checkedMembers = async (auth: AuthContext, ownerId: number, requested: number[]): Promise<number[]> => {
  const ids = [...new Set([ownerId, ...requested])];
  const found = await Promise.all(ids.map((id) => consistentGet(userKeys(auth.companyId, id))));
  const unknown = ids.filter((_, i) => !found[i]);
  if (unknown.length > 0) {
    throw new BadRequest('ERR_VALIDATION', 'Some users do not exist in this company', [
      { field: 'body.users', reason: `unknown users: ${unknown.join(', ')}` },
    ]);
  }
  return ids;
};

/** Sends chat events to members only: each member's list channel, and the chat's pane channel. */
const announce = async (
  companyId: number,
  perMember: { userIds: number[]; event: ChatEvent }[],
  pane?: { memberIds: number[]; chatId: number; event: ChatEvent },
): Promise<void> => {
  try {
    const connections = await listCompanyConnections(companyId);
    if (connections.length === 0) return;
    const sends: Promise<unknown>[] = [];
    for (const { userIds, event } of perMember) {
      for (const userId of userIds) {
        sends.push(
          publishToConnections(connections, companyId, { ...event, chatTarget: { userId } }, onlyUser(userId)),
        );
      }
    }
    if (pane) {
      const members = new Set(pane.memberIds);
      sends.push(
        publishToConnections(connections, companyId, { ...pane.event, chatTarget: { chatId: pane.chatId } }, (c) =>
          members.has(c.userId),
        ),
      );
    }
    await Promise.all(sends);
  } catch (err) {
    logger.warn('chat event not sent', { companyId, ...errorFields(err) });
  }
};

const memberIds = (c: ChatWithMembers) => c.members.map((m) => m.userId);

export const listMyChats = async (
  auth: AuthContext,
  q: PagingInput & { searchParam?: string | undefined },
): Promise<ChatPage> => {
  const page = await fetchPage(q, CHAT_PAGE_SIZE, (cursor) =>
    listUserChats(auth.companyId, auth.userId, { search: q.searchParam, limit: CHAT_PAGE_SIZE, cursor }),
  );
  const [chats, names] = await Promise.all([
    Promise.all(page.items.map((id) => getChat(auth.companyId, id))),
    namesOf(auth.companyId),
  ]);
  return {
    records: chats
      .filter((c): c is ChatWithMembers => c !== null && isMember(c, auth.userId))
      .map((c) => toChatView(c, names)),
    hasMore: page.hasMore,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
};

/** `GET /chats/{id}`: by numeric id or by the uuid of `/chats/{uuid}`. */
export const showChat = async (auth: AuthContext, idOrUuid: number | string): Promise<ChatView> => {
  const id = typeof idOrUuid === 'number' ? idOrUuid : await getChatIdByUuid(auth.companyId, idOrUuid);
  if (id === null) throw chatNotFound();
  const [chat, names] = await Promise.all([findMine(auth, id), namesOf(auth.companyId)]);
  return toChatView(chat, names);
};

export const createMyChat = async (auth: AuthContext, input: { title: string; users: number[] }): Promise<ChatView> => {
  const members = await checkedMembers(auth, auth.userId, input.users);
  const created = await createChat(auth.companyId, {
    uuid: randomUUID(),
    title: input.title,
    ownerId: auth.userId,
    memberIds: members,
  });
  const view = toChatView(created, await namesOf(auth.companyId));
  await announce(auth.companyId, [{ userIds: members, event: { channel: 'chat', action: 'create', record: view } }]);
  return view;
};

export const updateMyChat = async (
  auth: AuthContext,
  chatId: number,
  input: { title: string; users: number[] },
): Promise<ChatView> => {
  const { before, after } = await withRetry(CHANGED_OR_BUSY, async () => {
    const current = await findOwned(auth, chatId);
    const members = await checkedMembers(auth, current.chat.ownerId, input.users);
    return { before: current, after: await updateChat(current, { title: input.title, memberIds: members }) };
  });
  const view = toChatView(after, await namesOf(auth.companyId));
  const stay = new Set(memberIds(after));
  await announce(auth.companyId, [
    { userIds: memberIds(after), event: { channel: 'chat', action: 'update', record: view } },
    {
      userIds: memberIds(before).filter((u) => !stay.has(u)),
      event: { channel: 'chat', action: 'delete', id: chatId },
    },
  ]);
  return view;
};

export const deleteMyChat = async (auth: AuthContext, chatId: number): Promise<void> => {
  const gone = await withRetry(CHANGED_OR_BUSY, async () => {
    const current = await findOwned(auth, chatId);
    await deleteChat(current);
    return current;
  });
  await announce(
    auth.companyId,
    [{ userIds: memberIds(gone), event: { channel: 'chat', action: 'delete', id: chatId } }],
    { memberIds: memberIds(gone), chatId, event: { channel: 'chat', action: 'delete', id: chatId } },
  );
};

export const listMessages = async (auth: AuthContext, chatId: number, q: PagingInput): Promise<ChatMessagePage> => {
  await findMine(auth, chatId);
  const page = await fetchPage(q, CHAT_MESSAGE_PAGE_SIZE, (cursor) =>
    listChatMessages(auth.companyId, chatId, { limit: CHAT_MESSAGE_PAGE_SIZE, cursor }),
  );
  const names = await namesOf(auth.companyId);
  return {
    records: page.items.map((m) => toMessageView(m, names)),
    hasMore: page.hasMore,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
};

/**
 * `POST /chats/{id}/messages`: stored with the chat's last message and every member's unread count in one
 * transaction (retried when another message lands at the same moment); then `new-message` to the chat's
 * pane and to each member's list, with the chat as it now is.
 */
export const sendMessage = async (
  auth: AuthContext,
  chatId: number,
  input: { message: string },
): Promise<ChatMessageView> => {
  const posted = await withRetry(CHANGED_OR_BUSY, async () =>
    postChatMessage(await findMine(auth, chatId), { senderId: auth.userId, message: input.message }),
  );
  const names = await namesOf(auth.companyId);
  const newMessage = toMessageView(posted.message, names);
  const record = toChatView(posted.chat, names);
  const members = memberIds(posted.chat);
  await announce(
    auth.companyId,
    [{ userIds: members, event: { channel: 'chat', action: 'new-message', newMessage, record } }],
    { memberIds: members, chatId, event: { channel: 'chat', action: 'new-message', newMessage, record } },
  );
  return newMessage;
};

/** `POST /chats/{id}/read`: the caller's unread count goes to 0 (the body's userId is not read: the token's). */
export const markRead = async (auth: AuthContext, chatId: number): Promise<ChatView> => {
  await findMine(auth, chatId);
  if (!(await withRetry(BUSY, () => markChatRead(auth.companyId, chatId, auth.userId)))) throw chatNotFound();
  const [chat, names] = await Promise.all([findMine(auth, chatId), namesOf(auth.companyId)]);
  const view = toChatView(chat, names);
  await announce(auth.companyId, [
    { userIds: [auth.userId], event: { channel: 'chat', action: 'update', record: view } },
  ]);
  return view;
};
