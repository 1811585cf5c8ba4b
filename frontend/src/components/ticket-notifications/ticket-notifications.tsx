import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { AuthUser } from '@/api/auth';
import type { Message } from '@/api/messages';
import { appMessageChannel, ticketChannel, type Ticket } from '@/api/tickets';
import { getVolume } from '@/components/shell/preferences';
import { useChannel } from '@/realtime/use-socket';
import { shouldNotify, titleWithUnread } from './notification-rules';

/** A short two-tone chime at the user's volume (top bar slider, core spec §9); silent at 0. */
export const playChime = (volume = getVolume()): void => {
  if (volume <= 0) return;
  const Context =
    window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Context) return;
  try {
    const context = new Context();
    const gain = context.createGain();
    gain.gain.value = volume * 0.3;
    gain.connect(context.destination);
    [880, 1320].forEach((frequency, i) => {
      const tone = context.createOscillator();
      tone.frequency.value = frequency;
      tone.connect(gain);
      tone.start(context.currentTime + i * 0.15);
      tone.stop(context.currentTime + i * 0.15 + 0.14);
    });
    setTimeout(() => void context.close(), 600);
  } catch {
    // No audio output: the popup and the title still tell.
  }
};

const browserNotifications = (): typeof Notification | undefined =>
  typeof window !== 'undefined' && 'Notification' in window ? window.Notification : undefined;

/**
 * Ticket notifications (core spec §4 Listing, §9): asks the browser's permission once, and for each new
 * message that passes `shouldNotify` shows a browser notification (clicking opens the ticket) and plays
 * the chime at the chosen volume; the document title carries the number of tickets with unread news.
 * A ticket leaves the count when it is opened, read elsewhere, or deleted.
 */
export function TicketNotifications({
  user,
  showNotificationPending,
  visibleTicketUuid,
}: {
  user: AuthUser;
  showNotificationPending: boolean;
  visibleTicketUuid: string | null;
}) {
  const navigate = useNavigate();
  const [unread, setUnread] = useState<Map<number, string>>(() => new Map());
  const baseTitle = useRef(document.title);

  useEffect(() => {
    const api = browserNotifications();
    if (api && api.permission === 'default') void api.requestPermission().catch(() => undefined);
  }, []);

  useEffect(() => {
    setUnread((all) => {
      const shown = [...all].find(([, uuid]) => uuid === visibleTicketUuid);
      if (!shown) return all;
      const next = new Map(all);
      next.delete(shown[0]);
      return next;
    });
  }, [visibleTicketUuid]);

  useEffect(() => {
    document.title = titleWithUnread(baseTitle.current, unread.size);
  }, [unread]);
  useEffect(() => {
    const title = baseTitle.current;
    return () => {
      document.title = title;
    };
  }, []);

  useChannel(appMessageChannel(user.companyId), (event) => {
    if (event.action !== 'create') return;
    const message = event.message as Message | undefined;
    const ticket = event.ticket as Ticket | undefined;
    if (!message || !ticket) return;
    const visible = document.visibilityState === 'visible' ? visibleTicketUuid : null;
    if (!shouldNotify(message, ticket, user, { showNotificationPending, visibleTicketUuid: visible })) return;
    setUnread((all) => new Map(all).set(ticket.id, ticket.uuid));
    const api = browserNotifications();
    if (api && api.permission === 'granted') {
      const popup = new api(ticket.contact?.name ?? '', { body: message.body, tag: ticket.uuid });
      popup.onclick = () => {
        window.focus();
        void navigate(`/tickets/${ticket.uuid}`);
        popup.close();
      };
    }
    playChime();
  });

  useChannel(ticketChannel(user.companyId), (event) => {
    if ((event.action === 'updateUnread' || event.action === 'delete') && typeof event.ticketId === 'number') {
      const id = event.ticketId;
      setUnread((all) => {
        if (!all.has(id)) return all;
        const next = new Map(all);
        next.delete(id);
        return next;
      });
    }
  });

  return null;
}
