import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { AuthUser } from '@/api/auth';
import type { Message } from '@/api/messages';
import { companyChannel } from '@contracts/realtime';
import type { Ticket } from '@/api/tickets';
import { getVolume } from '@/components/shell/preferences';
import { stripWhatsappMarkup } from '@/components/whatsapp-markup';
import { useChannel } from '@/realtime/use-socket';
import { shouldNotify, titleWithUnread } from './notification-rules';
import { notifyInBackground } from '@/service-worker-registration';
import { resetNotifierState, useNotifierState } from './notifier-store';

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

/** A ticket with news the user has not seen yet (the top bar's notifications list). */
export interface UnreadTicket {
  ticketId: number;
  uuid: string;
  contactName: string;
  lastMessage: string;
}

/**
 * Ticket notifications (core spec §4 Listing, §9), run once by the app shell for every private page: asks
 * the browser's permission once, and for each new message that passes `shouldNotify` shows a browser
 * notification (clicking opens the ticket) and plays the chime at the chosen volume; the document title
 * carries the number of tickets with unseen news, and the returned list (newest first) feeds the top bar's
 * bell. A ticket leaves the list when it is opened on the ticket screen, read elsewhere, or deleted.
 */
export function useTicketNotifications(user: AuthUser): UnreadTicket[] {
  const navigate = useNavigate();
  const { visibleTicketUuid, showNotificationPending } = useNotifierState();
  const [unread, setUnread] = useState<UnreadTicket[]>([]);
  const baseTitle = useRef(document.title);

  useEffect(() => {
    const api = browserNotifications();
    if (api && api.permission === 'default') void api.requestPermission().catch(() => undefined);
  }, []);

  useEffect(() => {
    if (visibleTicketUuid === null) return;
    setUnread((all) =>
      all.some((u) => u.uuid === visibleTicketUuid) ? all.filter((u) => u.uuid !== visibleTicketUuid) : all,
    );
  }, [visibleTicketUuid]);

  useEffect(() => {
    document.title = titleWithUnread(baseTitle.current, unread.length);
  }, [unread]);
  useEffect(() => {
    const title = baseTitle.current;
    return () => {
      document.title = title;
      resetNotifierState();
    };
  }, []);

  useChannel(companyChannel(user.companyId, 'appMessage'), (event) => {
    if (event.action !== 'create') return;
    const message = event.message as Message | undefined;
    const ticket = event.ticket as Ticket | undefined;
    if (!message || !ticket) return;
    const visible = document.visibilityState === 'visible' ? visibleTicketUuid : null;
    if (!shouldNotify(message, ticket, user, { showNotificationPending, visibleTicketUuid: visible })) return;
    const entry: UnreadTicket = {
      ticketId: ticket.id,
      uuid: ticket.uuid,
      contactName: ticket.contact?.name ?? '',
      lastMessage: message.body,
    };
    setUnread((all) => [entry, ...all.filter((u) => u.ticketId !== ticket.id)]);
    const api = browserNotifications();
    const body = stripWhatsappMarkup(message.body);
    // A hidden tab: the service worker shows it (D158); a visible one shows its own popup.
    if (
      api &&
      api.permission === 'granted' &&
      !notifyInBackground({ title: entry.contactName, body, tag: ticket.uuid, url: `/tickets/${ticket.uuid}` })
    ) {
      const popup = new api(entry.contactName, { body, tag: ticket.uuid });
      popup.onclick = () => {
        window.focus();
        void navigate(`/tickets/${ticket.uuid}`);
        popup.close();
      };
    }
    playChime();
  });

  useChannel(companyChannel(user.companyId, 'ticket'), (event) => {
    if ((event.action === 'updateUnread' || event.action === 'delete') && typeof event.ticketId === 'number') {
      const id = event.ticketId;
      setUnread((all) => (all.some((u) => u.ticketId === id) ? all.filter((u) => u.ticketId !== id) : all));
    }
  });

  return unread;
}
