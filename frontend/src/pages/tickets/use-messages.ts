import { useCallback, useEffect, useRef, useState } from 'react';
import { companyChannel } from '@contracts/realtime';
import { listMessages, type Message } from '@/api/messages';
import type { SocketEvent } from '@/realtime/socket';
import { useChannel, useOnReconnect } from '@/realtime/use-socket';

/**
 * A customer's message arriving in the open conversation: its first page is read again this much later (one
 * read for a burst), which marks the ticket read on the server (data-model §2.14) as opening it did.
 */
export const READ_AGAIN_MS = 1000;

const isMessage = (value: unknown): value is Message =>
  typeof value === 'object' && value !== null && typeof (value as Message).id === 'string' && 'ticketId' in value;

/** Oldest first, each message once (an event and a page can both carry it; the later copy wins). */
export const mergeMessages = (shown: Message[], incoming: Message[]): Message[] => {
  const byId = new Map<string, Message>();
  for (const m of [...shown, ...incoming]) byId.set(m.id, { ...byId.get(m.id), ...m });
  return [...byId.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
};

export interface TicketMessages {
  status: 'loading' | 'ready' | 'error';
  messages: Message[];
  hasMore: boolean;
  loadingOlder: boolean;
  error: unknown;
  loadOlder: () => void;
  /** A message the server answered (sent, edited): shown at once. */
  upsert: (message: Message) => void;
  remove: (id: string) => void;
}

/**
 * A ticket's messages: page 1 (the newest) first, older pages on demand, and the company's appMessage
 * events for this ticket applied live. A reconnect reads page 1 again and merges it; so does a customer's
 * message arriving while the conversation is open (READ_AGAIN_MS), so the server counts it read.
 */
export function useMessages(companyId: number, ticketUuid: string, ticketId: number | undefined): TicketMessages {
  const [messages, setMessages] = useState<Message[]>([]);
  const [status, setStatus] = useState<TicketMessages['status']>('loading');
  const [error, setError] = useState<unknown>(undefined);
  const [hasMore, setHasMore] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const page = useRef(1);
  const [generation, setGeneration] = useState(0);
  const readAgain = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(readAgain.current), []);

  useEffect(() => {
    if (ticketId === undefined) return undefined;
    const controller = new AbortController();
    listMessages(ticketUuid, 1, [], { signal: controller.signal }).then(
      (answer) => {
        if (controller.signal.aborted) return;
        page.current = 1;
        setMessages((shown) => mergeMessages(shown, answer.messages));
        setHasMore(answer.hasMore);
        setStatus('ready');
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        setError(err);
        setStatus('error');
      },
    );
    return () => controller.abort();
  }, [ticketUuid, ticketId, generation]);

  const loadOlder = useCallback(() => {
    if (loadingOlder || !hasMore) return;
    setLoadingOlder(true);
    const next = page.current + 1;
    listMessages(ticketUuid, next).then(
      (answer) => {
        page.current = next;
        setMessages((shown) => mergeMessages(shown, answer.messages));
        setHasMore(answer.hasMore);
        setLoadingOlder(false);
      },
      (err: unknown) => {
        setError(err);
        setLoadingOlder(false);
      },
    );
  }, [ticketUuid, loadingOlder, hasMore]);

  const upsert = useCallback((message: Message) => setMessages((shown) => mergeMessages(shown, [message])), []);
  const remove = useCallback((id: string) => setMessages((shown) => shown.filter((m) => m.id !== id)), []);

  useChannel(companyChannel(companyId, 'appMessage'), (event: SocketEvent) => {
    if ((event.action === 'create' || event.action === 'update') && isMessage(event.message)) {
      if (event.message.ticketId !== ticketId) return;
      upsert(event.message);
      if (event.action === 'create' && !event.message.fromMe) {
        clearTimeout(readAgain.current);
        readAgain.current = setTimeout(() => setGeneration((g) => g + 1), READ_AGAIN_MS);
      }
    }
    if (event.action === 'delete' && typeof event.messageId === 'string') remove(event.messageId);
  });
  useOnReconnect(useCallback(() => setGeneration((g) => g + 1), []));

  return { status, messages, hasMore, loadingOlder, error, loadOlder, upsert, remove };
}
