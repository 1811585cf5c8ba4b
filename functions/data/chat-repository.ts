import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '../shared/errors';
import { batchWriteAll } from './batch-write';
import { db, tableName } from './client';
import { nextId } from './counter-repository';
import { mapDynamoErrors } from './errors';
import { company, pad, searchForm } from './keys';
import { queryPage, type Page } from './query-page';
import { transactWrite, type TransactItem } from './transactions';
import { newUlid } from './ulids';

/**
 * Internal chats (docs/data-model.md §2.26, §3.11; decisions D145). One partition per chat holds the chat,
 * its members and its messages:
 * - chat `C#<c>#CHAT#<pad id> / CHAT` (uuid, title, ownerId, lastMessage, updatedAt, version);
 * - member `… / MEMBER#<pad userId>` (unreads, lastReadAt, titleSf), listed per user on gsi2
 *   `C#<c>#CHATU#<userId>` → `<chat updatedAt>#<pad chatId>` (the user's chats, most active first);
 * - message `… / MSG#<ulid>` (senderId, message, createdAt), newest first by the ULID;
 * - uuid pointer `C#<c>#CHATUUID#<uuid> / CHATUUID` (chatId), for `/chats/{uuid}`.
 * Every change of the chat or its members is one transaction, so members and unread counts never disagree
 * with the chat.
 */
export interface Chat {
  id: number;
  companyId: number;
  uuid: string;
  title: string;
  ownerId: number;
  lastMessage: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface ChatMember {
  userId: number;
  unreads: number;
  lastReadAt: string | null;
}

export interface ChatWithMembers {
  chat: Chat;
  members: ChatMember[];
}

export interface ChatMessage {
  id: string;
  chatId: number;
  senderId: number;
  message: string;
  createdAt: string;
}

const chatPartition = (companyId: number, chatId: number) => `${company(companyId)}#CHAT#${pad(chatId)}`;
export const chatKeys = (companyId: number, chatId: number) => ({ pk: chatPartition(companyId, chatId), sk: 'CHAT' });
const memberKeys = (companyId: number, chatId: number, userId: number) => ({
  pk: chatPartition(companyId, chatId),
  sk: `MEMBER#${pad(userId)}`,
});
const uuidKeys = (companyId: number, uuid: string) => ({
  pk: `${company(companyId)}#CHATUUID#${uuid}`,
  sk: 'CHATUUID',
});
export const userChatsPartition = (companyId: number, userId: number) => `${company(companyId)}#CHATU#${userId}`;
const memberIndex = (companyId: number, chatId: number, userId: number, activeAt: string) => ({
  gsi2pk: userChatsPartition(companyId, userId),
  gsi2sk: `${activeAt}#${pad(chatId)}`,
});

/** The longest last-message preview kept on the chat. */
const LAST_MESSAGE_PREVIEW = 200;

export const chatNotFound = () => new NotFound('ERR_NO_CHAT_FOUND', 'Chat not found');
const changedMeanwhile = () => new Conflict('ERR_CONFLICT', 'The chat changed meanwhile, reload it');

const toChat = (i: Record<string, unknown>): Chat => ({
  id: Number(i.id),
  companyId: Number(i.companyId),
  uuid: String(i.uuid),
  title: String(i.title),
  ownerId: Number(i.ownerId),
  lastMessage: String(i.lastMessage ?? ''),
  createdAt: String(i.createdAt),
  updatedAt: String(i.updatedAt),
  version: Number(i.version ?? 1),
});
const toMember = (i: Record<string, unknown>): ChatMember => ({
  userId: Number(i.userId),
  unreads: Number(i.unreads ?? 0),
  lastReadAt: typeof i.lastReadAt === 'string' ? i.lastReadAt : null,
});
const toMessage = (i: Record<string, unknown>): ChatMessage => ({
  id: String(i.id),
  chatId: Number(i.chatId),
  senderId: Number(i.senderId),
  message: String(i.message),
  createdAt: String(i.createdAt),
});

const memberItem = (c: Chat, userId: number) => ({
  ...memberKeys(c.companyId, c.id, userId),
  ...memberIndex(c.companyId, c.id, userId, c.updatedAt),
  type: 'CHATMEMBER',
  companyId: c.companyId,
  chatId: c.id,
  userId,
  unreads: 0,
  titleSf: searchForm(c.title),
});

/** Creates the chat with its members (the owner among them) in one transaction. */
export const createChat = async (
  companyId: number,
  input: { uuid: string; title: string; ownerId: number; memberIds: number[] },
): Promise<ChatWithMembers> => {
  const id = await nextId(companyId, 'chat');
  const now = new Date().toISOString();
  const chat: Chat = {
    id,
    companyId,
    uuid: input.uuid,
    title: input.title,
    ownerId: input.ownerId,
    lastMessage: '',
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  await transactWrite([
    {
      Put: {
        Item: { ...chatKeys(companyId, id), type: 'CHAT', ...chat },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        Item: { ...uuidKeys(companyId, input.uuid), type: 'CHATUUID', companyId, chatId: id },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...input.memberIds.map((userId) => ({ Put: { Item: memberItem(chat, userId) } })),
  ]);
  return { chat, members: input.memberIds.map((userId) => ({ userId, unreads: 0, lastReadAt: null })) };
};

/** The chat and its members (one consistent Query of the chat's partition before its messages), or null. */
export const getChat = async (companyId: number, chatId: number): Promise<ChatWithMembers | null> => {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND sk < :msg',
          ExpressionAttributeValues: { ':pk': chatPartition(companyId, chatId), ':msg': 'MSG#' },
          ConsistentRead: true,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    items.push(...(out.Items ?? []));
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  const chatItem = items.find((i) => i.sk === 'CHAT');
  if (!chatItem) return null;
  return {
    chat: toChat(chatItem),
    members: items.filter((i) => String(i.sk).startsWith('MEMBER#')).map(toMember),
  };
};

export const getChatIdByUuid = async (companyId: number, uuid: string): Promise<number | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: uuidKeys(companyId, uuid), ConsistentRead: true })),
  );
  return out.Item ? Number(out.Item.chatId) : null;
};

/**
 * A new title and member list, as the owner asks, in one transaction conditional on the chat's version:
 * members who stay keep their unread count, new ones start at 0, removed ones go.
 */
export const updateChat = async (
  current: ChatWithMembers,
  input: { title: string; memberIds: number[] },
): Promise<ChatWithMembers> => {
  const { chat } = current;
  const next: Chat = { ...chat, title: input.title, version: chat.version + 1 };
  const before = new Set(current.members.map((m) => m.userId));
  const after = new Set(input.memberIds);
  const items: TransactItem[] = [
    {
      Update: {
        Key: chatKeys(chat.companyId, chat.id),
        UpdateExpression: 'SET title = :title, version = :next',
        ConditionExpression: 'version = :seen',
        ExpressionAttributeValues: { ':title': next.title, ':next': next.version, ':seen': chat.version },
      },
    },
  ];
  for (const userId of after) {
    if (before.has(userId)) {
      if (next.title !== chat.title) {
        items.push({
          Update: {
            Key: memberKeys(chat.companyId, chat.id, userId),
            UpdateExpression: 'SET titleSf = :sf',
            ExpressionAttributeValues: { ':sf': searchForm(next.title) },
          },
        });
      }
    } else items.push({ Put: { Item: memberItem(next, userId) } });
  }
  for (const userId of before) {
    if (!after.has(userId)) items.push({ Delete: { Key: memberKeys(chat.companyId, chat.id, userId) } });
  }
  await transactWrite(items, changedMeanwhile);
  const kept = current.members.filter((m) => after.has(m.userId));
  const added = [...after].filter((u) => !before.has(u)).map((userId) => ({ userId, unreads: 0, lastReadAt: null }));
  return { chat: next, members: [...kept, ...added] };
};

/**
 * Deletes the chat, its uuid and its members in one transaction conditional on the version read (so nobody
 * can reach it afterwards), then its messages in batches.
 */
export const deleteChat = async (current: ChatWithMembers): Promise<void> => {
  const { chat } = current;
  await transactWrite(
    [
      {
        Delete: {
          Key: chatKeys(chat.companyId, chat.id),
          ConditionExpression: 'version = :seen',
          ExpressionAttributeValues: { ':seen': chat.version },
        },
      },
      { Delete: { Key: uuidKeys(chat.companyId, chat.uuid) } },
      ...current.members.map((m) => ({ Delete: { Key: memberKeys(chat.companyId, chat.id, m.userId) } })),
    ],
    changedMeanwhile,
  );
  await purgeChatMessages(chat.companyId, chat.id);
};

/** Removes every message of a (deleted) chat, a page of keys at a time. */
export const purgeChatMessages = async (companyId: number, chatId: number): Promise<void> => {
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :msg)',
          ExpressionAttributeValues: { ':pk': chatPartition(companyId, chatId), ':msg': 'MSG#' },
          ProjectionExpression: 'pk, sk',
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    await batchWriteAll(
      (out.Items ?? []).map((i) => ({ DeleteRequest: { Key: { pk: String(i.pk), sk: String(i.sk) } } })),
    );
    startKey = out.LastEvaluatedKey;
  } while (startKey);
};

/**
 * Stores a message and, in the same transaction, the chat's last message and every member's place in
 * their list: the sender's unread count stays as it is, everyone else's goes up by one.
 */
export const postChatMessage = async (
  current: ChatWithMembers,
  input: { senderId: number; message: string },
): Promise<{ message: ChatMessage; chat: ChatWithMembers }> => {
  const { chat } = current;
  const now = Date.now();
  const at = new Date(now).toISOString();
  const id = newUlid(now);
  const message: ChatMessage = { id, chatId: chat.id, senderId: input.senderId, message: input.message, createdAt: at };
  const lastMessage = input.message.slice(0, LAST_MESSAGE_PREVIEW);
  await transactWrite(
    [
      {
        Put: {
          Item: {
            pk: chatPartition(chat.companyId, chat.id),
            sk: `MSG#${id}`,
            type: 'CHATMSG',
            companyId: chat.companyId,
            ...message,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          Key: chatKeys(chat.companyId, chat.id),
          UpdateExpression: 'SET lastMessage = :last, updatedAt = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':last': lastMessage, ':at': at },
        },
      },
      ...current.members.map((m) => {
        const index = memberIndex(chat.companyId, chat.id, m.userId, at);
        const own = m.userId === input.senderId;
        return {
          Update: {
            Key: memberKeys(chat.companyId, chat.id, m.userId),
            UpdateExpression: own ? 'SET gsi2sk = :sk, lastReadAt = :at' : 'SET gsi2sk = :sk ADD unreads :one',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':sk': index.gsi2sk, ...(own ? { ':at': at } : { ':one': 1 }) },
          },
        };
      }),
    ],
    changedMeanwhile,
  );
  return {
    message,
    chat: {
      chat: { ...chat, lastMessage, updatedAt: at },
      members: current.members.map((m) =>
        m.userId === input.senderId ? { ...m, lastReadAt: at } : { ...m, unreads: m.unreads + 1 },
      ),
    },
  };
};

/** The member has read everything: unreads 0. False when they are not (or no longer) a member. */
export const markChatRead = async (companyId: number, chatId: number, userId: number): Promise<boolean> => {
  try {
    await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: memberKeys(companyId, chatId, userId),
          UpdateExpression: 'SET unreads = :zero, lastReadAt = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':zero': 0, ':at': new Date().toISOString() },
        }),
      ),
    );
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
};

/** A page of the user's chats, most recently active first; with `search`, those whose title starts with it. */
export const listUserChats = async (
  companyId: number,
  userId: number,
  q: { search?: string | undefined; limit: number; cursor?: string | undefined },
): Promise<Page<number>> => {
  const partition = userChatsPartition(companyId, userId);
  const prefix = q.search ? searchForm(q.search) : '';
  const page = await queryPage<Record<string, unknown>>({
    scope: `${partition}#${prefix}`,
    index: 'gsi2',
    partition,
    limit: q.limit,
    cursor: q.cursor,
    descending: true,
    ...(prefix ? { filter: { expression: 'begins_with(titleSf, :sf)', values: { ':sf': prefix } } } : {}),
  });
  return { ...page, items: page.items.map((i) => Number(i.chatId)) };
};

/** A page of a chat's messages, newest first. */
export const listChatMessages = async (
  companyId: number,
  chatId: number,
  q: { limit: number; cursor?: string | undefined },
): Promise<Page<ChatMessage>> => {
  const partition = chatPartition(companyId, chatId);
  const page = await queryPage<Record<string, unknown>>({
    scope: `${partition}#MSG`,
    partition,
    sortPrefix: 'MSG#',
    limit: q.limit,
    cursor: q.cursor,
    descending: true,
  });
  return { ...page, items: page.items.map(toMessage) };
};
