import Alert from '@cloudscape-design/components/alert';
import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { companyChannel } from '@contracts/realtime';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { getMoments, getUsersMoments, type MomentTicket, type UserMoment } from '@/api/dashboard';
import { useCurrentUser } from '@/components/shell/shell-context';
import { useOnFollow } from '@/hooks/use-on-follow';
import { useRequest } from '@/hooks/use-request';
import { useChannel, useOnReconnect } from '@/realtime/use-socket';

/** A socket event refetches the panel after this pause, so a burst of events costs one read. */
export const PANEL_REFETCH_MS = 300;
/**
 * A plain user's socket hears only the tickets they may see (D32), so their panel also rereads on this
 * interval, keeping it at most this stale (decisions D111).
 */
export const PANEL_POLL_MS = 2000;

/** Core §9: panel texts — last message over 30 cut to 27 plus an ellipsis, names over 30 cut to 25. */
const cut = (text: string, max: number, keep: number) => (text.length > max ? `${text.slice(0, keep)}…` : text);
const time = (iso: string) => {
  const d = new Date(iso);
  const today = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return d.toDateString() === today.toDateString()
    ? `${pad(d.getHours())}:${pad(d.getMinutes())}`
    : `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
};

function TicketLine({ ticket }: { ticket: MomentTicket }) {
  const { t } = useTranslation();
  const onFollow = useOnFollow();
  return (
    <li data-testid="panel-ticket" style={{ listStyle: 'none', padding: '4px 0' }}>
      <SpaceBetween size="xxs">
        <Box>
          <b>{cut(ticket.contact.name, 30, 25)}</b>{' '}
          <Box variant="small" display="inline">
            #{ticket.id} · {time(ticket.updatedAt)}
          </Box>{' '}
          {ticket.queue && <Badge color="grey">{ticket.queue.name}</Badge>}{' '}
          {ticket.unreadMessages > 0 && <Badge color="blue">{ticket.unreadMessages}</Badge>}
        </Box>
        <Box variant="small" color="text-body-secondary">
          {cut(ticket.lastMessage, 30, 27)}
        </Box>
        {ticket.canOpen && (
          <Button variant="inline-link" href={`/tickets/${ticket.uuid}`} onFollow={onFollow}>
            {t('moments.open', { id: ticket.id })}
          </Button>
        )}
      </SpaceBetween>
    </li>
  );
}

function Card({ title, online, tickets }: { title: string; online?: boolean; tickets: MomentTicket[] }) {
  const { t } = useTranslation();
  return (
    <Container
      header={
        <Header
          variant="h3"
          counter={`(${tickets.length})`}
          description={
            online === undefined ? undefined : (
              <StatusIndicator type={online ? 'success' : 'stopped'}>
                {t(online ? 'dashboard.attendants.online' : 'dashboard.attendants.offline')}
              </StatusIndicator>
            )
          }
        >
          {title}
        </Header>
      }
    >
      <ul aria-label={title} style={{ margin: 0, padding: 0 }}>
        {tickets.map((ticket) => (
          <TicketLine key={ticket.id} ticket={ticket} />
        ))}
      </ul>
    </Container>
  );
}

/** Cards: one per attendant holding open tickets (by name), then Pendentes (tickets without a user). */
export const panelCards = (tickets: MomentTicket[], users: UserMoment[]) => {
  const byUser = new Map<number, MomentTicket[]>();
  for (const ticket of tickets) {
    if (ticket.userId === null || ticket.status !== 'open') continue;
    byUser.set(ticket.userId, [...(byUser.get(ticket.userId) ?? []), ticket]);
  }
  const names = new Map(users.map((u) => [u.id, u]));
  const attendants = [...byUser.entries()]
    .map(([id, list]) => ({
      id,
      name: names.get(id)?.name ?? list[0]?.user?.name ?? '',
      online: names.get(id)?.online ?? false,
      tickets: list,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const pending = tickets.filter((x) => x.status === 'pending' && x.userId === null);
  return { attendants, pending };
};

/**
 * The attendance panel at /moments ('Painel de Atendimentos', core §2): one card per attendant with open
 * tickets plus a Pendentes card, kept live from the company's ticket and message events (decisions D111).
 * An admin may open any ticket, a user only their own (the server says which: `canOpen`). The route guard
 * shows the no-permission view to users without allowRealTime.
 */
export function MomentsPage() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const tickets = useRequest((signal) => getMoments({ signal }), []);
  const users = useRequest((signal) => getUsersMoments({ signal }), []);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refetch = () => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      tickets.reload();
      users.reload();
    }, PANEL_REFETCH_MS);
  };
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  useChannel(companyChannel(me.companyId, 'ticket'), refetch);
  useChannel(companyChannel(me.companyId, 'appMessage'), refetch);
  useOnReconnect(refetch);
  const manager = me.profile === 'admin' || me.super;
  useEffect(() => {
    if (manager) return undefined;
    const id = setInterval(() => {
      tickets.reload();
      users.reload();
    }, PANEL_POLL_MS);
    return () => clearInterval(id);
    // reload functions are stable
  }, [manager]);

  const error = tickets.status === 'error' || users.status === 'error';
  return (
    <SpaceBetween size="l">
      <Header variant="h1">{t('menu.moments')}</Header>
      {error && <Alert type="error">{t('moments.error')}</Alert>}
      {(tickets.status === 'loading' || users.status === 'loading') && !error && <Spinner size="large" />}
      {tickets.status === 'ready' && users.status === 'ready' && (
        <Panel tickets={tickets.data.tickets} users={users.data} />
      )}
    </SpaceBetween>
  );
}

function Panel({ tickets, users }: { tickets: MomentTicket[]; users: UserMoment[] }) {
  const { t } = useTranslation();
  const { attendants, pending } = panelCards(tickets, users);
  return (
    <ColumnLayout columns={3}>
      <Card title={t('moments.pending')} tickets={pending} />
      {attendants.map((a) => (
        <Card key={a.id} title={a.name} online={a.online} tickets={a.tickets} />
      ))}
      {attendants.length === 0 && <Box color="text-body-secondary">{t('moments.nobody')}</Box>}
    </ColumnLayout>
  );
}
