import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Textarea from '@cloudscape-design/components/textarea';
import { chatChannel } from '@contracts/realtime';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { listChatMessages, markChatRead, sendChatMessage, type Chat, type ChatMessage } from '@/api/chats';
import type { AuthUser } from '@/api/auth';
import { useChannel, useOnReconnect } from '@/realtime/use-socket';

/** Administration §9: older messages load when the pane is scrolled within 600 px of its top. */
export const LOAD_OLDER_WITHIN_PX = 600;

interface Messages {
  items: ChatMessage[];
  cursor: string | undefined;
  hasMore: boolean;
  status: 'loading' | 'ready' | 'error';
}

const EMPTY: Messages = { items: [], cursor: undefined, hasMore: false, status: 'loading' };

/** A chat's messages oldest first: the newest page, older ones prepended, new ones from the chat's channel. */
function useChatMessages(companyId: number, chat: Chat) {
  const [state, setState] = useState<Messages>(EMPTY);
  const loading = useRef(false);

  const loadNewest = useCallback(
    (signal?: AbortSignal) => {
      loading.current = true;
      listChatMessages(chat.id, {}, signal ? { signal } : {}).then(
        (page) => {
          loading.current = false;
          if (signal?.aborted) return;
          setState({
            items: [...page.records].reverse(),
            cursor: page.nextCursor,
            hasMore: page.hasMore,
            status: 'ready',
          });
        },
        () => {
          loading.current = false;
          if (!signal?.aborted) setState((s) => ({ ...s, status: 'error' }));
        },
      );
    },
    [chat.id],
  );

  useEffect(() => {
    setState(EMPTY);
    const controller = new AbortController();
    loadNewest(controller.signal);
    return () => controller.abort();
  }, [loadNewest]);
  useOnReconnect(() => loadNewest());

  const loadOlder = () => {
    if (loading.current || !state.hasMore || !state.cursor) return;
    loading.current = true;
    listChatMessages(chat.id, { cursor: state.cursor }).then(
      (page) => {
        loading.current = false;
        setState((s) => {
          const known = new Set(s.items.map((m) => m.id));
          const older = [...page.records].reverse().filter((m) => !known.has(m.id));
          return { ...s, items: [...older, ...s.items], cursor: page.nextCursor, hasMore: page.hasMore };
        });
      },
      () => {
        loading.current = false;
      },
    );
  };

  const add = (message: ChatMessage) =>
    setState((s) => (s.items.some((m) => m.id === message.id) ? s : { ...s, items: [...s.items, message] }));

  useChannel(chatChannel(companyId, { chatId: chat.id }), (event) => {
    const message = event.newMessage as ChatMessage | undefined;
    if (event.action === 'new-message' && message?.chatId === chat.id) add(message);
  });

  return { ...state, loadOlder, add };
}

const time = (iso: string) => new Date(iso).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' });

const bubble = (own: boolean): CSSProperties => ({
  alignSelf: own ? 'flex-end' : 'flex-start',
  maxWidth: '75%',
  padding: '6px 10px',
  borderRadius: 8,
  background: own ? 'rgba(0, 115, 187, 0.14)' : 'rgba(128, 128, 128, 0.14)',
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-word',
});

/**
 * One chat's pane (administration spec "Internal chat"): its title with edit and delete for its owner only,
 * the messages oldest to newest (older ones load near the top), and the composer — Enter or the button
 * sends, Shift+Enter breaks the line, a blank message is not sent. Opening the chat, and a message from
 * someone else while it is open, mark it read.
 */
export function ChatPane({
  chat,
  me,
  onEdit,
  onDelete,
}: {
  chat: Chat;
  me: AuthUser;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const messages = useChatMessages(me.companyId, chat);
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  const lastHeight = useRef(0);
  const newestId = messages.items.at(-1)?.id;
  const oldestId = messages.items[0]?.id;
  const owner = chat.ownerId === me.id;

  // Read on opening, and again when someone else's message arrives while it is open.
  const newestSender = messages.items.at(-1)?.senderId;
  const ready = messages.status === 'ready';
  useEffect(() => {
    if (ready && newestSender !== me.id) void markChatRead(chat.id, me.id).catch(() => undefined);
  }, [chat.id, me.id, ready, newestId, newestSender]);

  // New messages keep the view at the bottom; older ones prepended keep the message read in place.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    el.scrollTop = el.scrollHeight;
    lastHeight.current = el.scrollHeight;
  }, [newestId]);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    el.scrollTop += el.scrollHeight - lastHeight.current;
    lastHeight.current = el.scrollHeight;
  }, [oldestId]);

  const send = async () => {
    const text = draft;
    if (!text.trim() || sending) return;
    setSending(true);
    try {
      messages.add(await sendChatMessage(chat.id, text));
      setDraft('');
    } catch {
      // Administration §8: chat calls fail silently; the draft stays for another try.
    } finally {
      setSending(false);
    }
  };

  return (
    <SpaceBetween size="s">
      <Header
        variant="h2"
        description={t('chats.members', { count: chat.users.length })}
        actions={
          owner && (
            <SpaceBetween direction="horizontal" size="xxs">
              <Button
                variant="icon"
                iconName="edit"
                ariaLabel={t('chats.edit', { name: chat.title })}
                onClick={onEdit}
              />
              <Button
                variant="icon"
                iconName="remove"
                ariaLabel={t('chats.remove', { name: chat.title })}
                onClick={onDelete}
              />
            </SpaceBetween>
          )
        }
      >
        {chat.title}
      </Header>
      <div
        ref={scroller}
        data-testid="chat-messages"
        onScroll={(e) => {
          if (e.currentTarget.scrollTop < LOAD_OLDER_WITHIN_PX) messages.loadOlder();
        }}
        style={{ height: '55vh', overflowY: 'auto', display: 'flex', flexDirection: 'column', gap: 6, padding: 4 }}
      >
        {messages.status === 'loading' && <Spinner />}
        {messages.status === 'ready' && messages.items.length === 0 && (
          <Box color="text-status-inactive">{t('chats.noMessages')}</Box>
        )}
        {messages.items.map((m) => (
          <div key={m.id} style={bubble(m.senderId === me.id)} data-testid="chat-message">
            <Box variant="small" fontWeight="bold">
              {m.sender.name}
            </Box>
            <Box>{m.message}</Box>
            <Box variant="small" color="text-status-inactive">
              {time(m.createdAt)}
            </Box>
          </div>
        ))}
      </div>
      <div
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void send();
          }
        }}
      >
        <SpaceBetween direction="horizontal" size="xs" alignItems="end">
          <div style={{ flex: 1, minWidth: 240 }}>
            <Textarea
              rows={2}
              value={draft}
              placeholder={t('chats.messagePlaceholder')}
              ariaLabel={t('chats.messageLabel')}
              onChange={({ detail }) => setDraft(detail.value)}
            />
          </div>
          <Button variant="primary" loading={sending} disabled={!draft.trim()} onClick={() => void send()}>
            {t('chats.send')}
          </Button>
        </SpaceBetween>
      </div>
    </SpaceBetween>
  );
}
