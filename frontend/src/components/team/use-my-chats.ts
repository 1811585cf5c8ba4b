import { chatChannel } from '@contracts/realtime';
import { listChats, type Chat } from '@/api/chats';
import { channelChange, useLiveList, type LiveChange } from '@/components/list-page/use-live-list';
import type { SocketEvent } from '@/realtime/socket';

/** The server's order: most recently active first. */
export const byActivity = (a: Chat, b: Chat) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;

const listChange = channelChange<Chat>({ item: 'record', deletedId: 'id' });
/** A member's list channel: create, update and new-message carry the chat as it now is; delete its id. */
export const chatListChange = (event: SocketEvent): LiveChange<Chat> | null =>
  event.action === 'new-message' ? listChange({ ...event, action: 'update' }) : listChange(event);

/** The caller's chats, live from `company-{id}-chat-user-{me}` (shared by the page and the top bar). */
export function useMyChats(companyId: number, meId: number) {
  return useLiveList({
    fetchPage: async (query, options) => {
      const page = await listChats(query, options);
      return { items: page.records, hasMore: page.hasMore, nextCursor: page.nextCursor };
    },
    compare: byActivity,
    channel: chatChannel(companyId, { userId: meId }),
    change: chatListChange,
  });
}
