import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ButtonDropdown, { type ButtonDropdownProps } from '@cloudscape-design/components/button-dropdown';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { companyChannel } from '@contracts/realtime';
import { deleteMessage, transcribeAudio, type Message } from '@/api/messages';
import {
  contactIdForNumber,
  createTicket,
  deleteTicket,
  getTicketByUuid,
  transitions,
  type Ticket,
} from '@/api/tickets';
import { ChatColors } from '@/components/chat-colors';
import { ConfirmModal } from '@/components/confirm-modal';
import { useNotifications } from '@/components/notifications';
import { useChannel, useRoom } from '@/realtime/use-socket';
import { can, roleOf } from '@/permissions';
import { Composer, type ComposerMode } from './composer';
import { formatDay } from './format';
import { MessageItem, type MessageAction } from './message-item';
import { useTicketActions } from './ticket-actions';
import { useTicketScreen, settingOn } from './ticket-screen-context';
import { TICKET_FETCH_DELAY_MS } from './use-ticket-list';
import { useMessages } from './use-messages';

const ContactDrawer = lazy(async () => ({ default: (await import('./contact-drawer')).ContactDrawer }));

/** Core spec §9: older messages load when the chat is scrolled to within 50 px of its top. */
export const OLDER_MESSAGES_PX = 50;

/** Core spec §4, D61: who may close or ignore a pending ticket. */
export const mayClosePending = (user: {
  profile: string;
  userClosePendingTicket: string;
  showDashboard: string;
}): boolean =>
  roleOf(user as { profile: 'admin' | 'user' }) === 'admin' ||
  user.userClosePendingTicket === 'enabled' ||
  user.showDashboard === 'enabled';

function Header({ ticket, onToggleDrawer }: { ticket: Ticket; onToggleDrawer: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const actions = useTicketActions();
  const notifications = useNotifications();
  const { user, settings } = useTicketScreen();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const mayDelete = can(roleOf(user), 'ticket-options:deleteTicket');
  const closePending = mayClosePending(user);
  const requiredTagMissing =
    settingOn(settings, 'requiredTag') && ticket.contact.tags.length === 0 && ticket.tags.length === 0;

  const resolve = (farewell: boolean) => {
    if (requiredTagMissing) {
      notifications.notify('warning', t('tickets.errors.requiredTag'));
      return;
    }
    void actions.change(ticket, transitions.resolve(user.id, farewell), { leave: true });
  };

  const moreItems: ButtonDropdownProps.Item[] = [
    { id: 'log', text: t('tickets.actions.log') },
    ...(mayDelete ? [{ id: 'delete', text: t('tickets.actions.delete') }] : []),
  ];

  return (
    <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 8, flexWrap: 'wrap' }}>
      <SpaceBetween direction="horizontal" size="xs" alignItems="center">
        <Button
          variant="icon"
          iconName="arrow-left"
          ariaLabel={t('tickets.header.back')}
          onClick={() => void navigate('/tickets')}
        />
        <div>
          <Button
            variant="inline-link"
            onClick={onToggleDrawer}
            ariaLabel={t('tickets.header.contactInfo', { name: ticket.contact.name })}
          >
            <span data-testid="ticket-contact-name">{ticket.contact.name}</span>
          </Button>
          <Box fontSize="body-s" color="text-body-secondary">
            <span data-testid="ticket-number">#{ticket.id}</span>
            {ticket.user && <> · {t('tickets.header.assigned', { name: ticket.user.name })}</>}
            {ticket.queue && <> · {ticket.queue.name}</>}
          </Box>
        </div>
      </SpaceBetween>
      <SpaceBetween direction="horizontal" size="xs" alignItems="center">
        {ticket.status === 'pending' && (
          <>
            {closePending && (
              <Button onClick={() => void actions.change(ticket, transitions.ignore(), { leave: true })}>
                {t('tickets.actions.ignore')}
              </Button>
            )}
            {closePending && <Button onClick={() => resolve(true)}>{t('tickets.actions.resolve')}</Button>}
            <Button variant="primary" onClick={() => void actions.accept(ticket)}>
              {t('tickets.actions.accept')}
            </Button>
          </>
        )}
        {(ticket.status === 'open' || ticket.status === 'group') && (
          <>
            {ticket.status === 'open' && (
              <Button onClick={() => void actions.change(ticket, transitions.returnToQueue(), { leave: true })}>
                {t('tickets.actions.return')}
              </Button>
            )}
            <Button onClick={() => actions.openDialog({ kind: 'transfer', ticket })}>
              {t('tickets.actions.transfer')}
            </Button>
            <ButtonDropdown
              variant="primary"
              items={[
                { id: 'farewell', text: t('tickets.actions.resolveWithFarewell') },
                { id: 'silent', text: t('tickets.actions.resolveWithoutFarewell') },
              ]}
              onItemClick={({ detail }) => resolve(detail.id === 'farewell')}
            >
              {t('tickets.actions.resolve')}
            </ButtonDropdown>
          </>
        )}
        {ticket.status === 'closed' && (
          <Button
            variant="primary"
            onClick={() => void actions.change(ticket, transitions.reopen(user.id), { open: true })}
          >
            {t('tickets.actions.reopen')}
          </Button>
        )}
        <ButtonDropdown
          variant="icon"
          ariaLabel={t('tickets.actions.more')}
          items={moreItems}
          onItemClick={({ detail }) => {
            if (detail.id === 'log') actions.openDialog({ kind: 'log', ticket });
            if (detail.id === 'delete') setConfirmDelete(true);
          }}
        />
      </SpaceBetween>
      {confirmDelete && (
        <ConfirmModal
          header={t('tickets.delete.title', { id: ticket.id })}
          cancelText={t('tickets.closeAll.no')}
          confirmText={t('tickets.closeAll.yes')}
          running={deleting}
          onDismiss={() => setConfirmDelete(false)}
          onConfirm={() => {
            setDeleting(true);
            deleteTicket(ticket.id).then(
              () => {
                notifications.success(t('tickets.delete.success'));
                void navigate('/tickets');
              },
              (err: unknown) => {
                notifications.error(err);
                setDeleting(false);
                setConfirmDelete(false);
              },
            );
          }}
        >
          {t('tickets.delete.text')}
        </ConfirmModal>
      )}
    </div>
  );
}

function Messages({
  ticket,
  list,
  onAction,
  transcripts,
}: {
  ticket: Ticket;
  list: ReturnType<typeof useMessages>;
  onAction: (a: MessageAction, m: Message) => void;
  transcripts: Record<string, string>;
}) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement | null>(null);
  const lastCount = useRef(0);
  const lastNewest = useRef<string | undefined>(undefined);
  const heightBefore = useRef(0);

  // New messages at the bottom scroll down; an older page keeps the view where it was.
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const newest = list.messages.at(-1)?.id;
    if (newest !== lastNewest.current) element.scrollTop = element.scrollHeight;
    else if (list.messages.length > lastCount.current) element.scrollTop = element.scrollHeight - heightBefore.current;
    lastNewest.current = newest;
    lastCount.current = list.messages.length;
  }, [list.messages]);

  if (list.status === 'error' && list.messages.length === 0)
    return <Alert type="error">{t('tickets.errors.messages')}</Alert>;
  let lastDay = '';
  return (
    <div
      ref={box}
      data-testid="message-list"
      onScroll={(event) => {
        const element = event.currentTarget;
        if (element.scrollTop < OLDER_MESSAGES_PX && list.hasMore && !list.loadingOlder) {
          heightBefore.current = element.scrollHeight;
          list.loadOlder();
        }
      }}
      style={{
        height: 'calc(100vh - 330px)',
        minHeight: 280,
        overflowY: 'auto',
        padding: 8,
        background: 'rgba(127,127,127,0.08)',
        borderRadius: 8,
      }}
    >
      {(list.status === 'loading' || list.loadingOlder) && (
        <Box textAlign="center">
          <Spinner />
        </Box>
      )}
      {list.messages.map((message) => {
        const day = formatDay(message.createdAt);
        const separator = day !== lastDay;
        lastDay = day;
        return (
          <div key={message.id}>
            {separator && (
              <Box textAlign="center" fontSize="body-s" color="text-body-secondary" padding="xxs">
                {day}
              </Box>
            )}
            <MessageItem
              message={message}
              isGroup={ticket.isGroup}
              transcript={transcripts[message.id]}
              onAction={onAction}
            />
          </div>
        );
      })}
    </div>
  );
}

/**
 * The open conversation (core spec §2): header with back, contact name, #id, assigned user and the
 * status's actions; the messages with older pages on scroll; the composer; the contact drawer. The ticket
 * is read TICKET_FETCH_DELAY_MS after opening; a failed read toasts and returns to /tickets.
 */
export function TicketView({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notifications = useNotifications();
  const actions = useTicketActions();
  const { user } = useTicketScreen();
  const [ticket, setTicket] = useState<Ticket | null>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [mode, setMode] = useState<ComposerMode>(null);
  const [transcripts, setTranscripts] = useState<Record<string, string>>({});
  const [deleting, setDeleting] = useState<Message | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      getTicketByUuid(uuid, { signal: controller.signal }).then(
        (answer) => {
          if (!controller.signal.aborted) setTicket(answer);
        },
        (err: unknown) => {
          if (controller.signal.aborted) return;
          notifications.error(err);
          void navigate('/tickets', { replace: true });
        },
      );
    }, TICKET_FETCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [uuid]);

  useEffect(
    () =>
      actions.onTicket((answer) =>
        setTicket((shown) => (shown && shown.id === answer.id ? { ...shown, ...answer } : shown)),
      ),
    [actions],
  );
  useChannel(companyChannel(user.companyId, 'ticket'), (event) => {
    if (!ticket) return;
    const changed = event.ticket as Ticket | undefined;
    if (event.action === 'update' && changed?.id === ticket.id)
      setTicket((shown) => (shown ? { ...shown, ...changed } : shown));
    if (event.action === 'delete' && event.ticketId === ticket.id) void navigate('/tickets');
  });
  const ticketId = ticket?.id ?? 0;
  useRoom({ action: 'joinChatBox', ticketId }, { action: 'leaveChatBox', ticketId });

  const messages = useMessages(user.companyId, uuid, ticket?.id);

  const onSent = useCallback((message: Message) => messages.upsert(message), [messages.upsert]);

  const onAction = (action: MessageAction, message: Message) => {
    switch (action) {
      case 'reply':
        setMode({ kind: 'reply', message });
        break;
      case 'edit':
        setMode({ kind: 'edit', message });
        break;
      case 'delete':
        setDeleting(message);
        break;
      case 'forward':
        actions.openDialog({ kind: 'forward', messageIds: [message.id] });
        break;
      case 'transcribe':
        // The message's id: the server finds its audio and keeps the text on it (D53).
        transcribeAudio(message.id).then(
          (text) => setTranscripts((all) => ({ ...all, [message.id]: text || t('tickets.message.noTranscript') })),
          (err: unknown) => notifications.error(err),
        );
        break;
      case 'talkToSender': {
        // The server names a group message's writer by number (and LID and push name), not by contact:
        // find the number's contact, or create it, then open a ticket with it (core spec §4).
        const number = message.participant?.number?.replace(/\D/g, '') ?? '';
        if (!ticket || number.length < 8) {
          notifications.notify('error', t('tickets.errors.noSender'));
          break;
        }
        const pushName = message.participant?.name?.trim() ?? '';
        contactIdForNumber(number, pushName.length >= 2 ? pushName : number)
          .then((contactId) =>
            createTicket({
              contactId,
              queueId: ticket.queueId,
              whatsappId: ticket.whatsappId,
              userId: user.id,
              status: 'open',
            }),
          )
          .then(
            (created) => {
              actions.publish(created, { follow: true });
              void navigate(`/tickets/${created.uuid}`);
            },
            (err: unknown) => {
              if (!actions.handleConflict(err)) notifications.error(err);
            },
          );
        break;
      }
    }
  };

  if (!ticket) {
    return (
      <Box textAlign="center" padding="l">
        <Spinner /> {t('common.loading')}
      </Box>
    );
  }

  const metaWindow = ticket.replyWindowEndsAt && ['facebook', 'instagram', 'whatsappapi'].includes(ticket.channel);

  return (
    <div style={{ display: 'flex', gap: 12 }}>
      <ChatColors />
      <div style={{ flex: 1, minWidth: 0 }}>
        <SpaceBetween size="s">
          <Header ticket={ticket} onToggleDrawer={() => setDrawerOpen((o) => !o)} />
          {metaWindow && <Alert type="info">{t('tickets.header.replyWindow')}</Alert>}
          <Messages ticket={ticket} list={messages} onAction={onAction} transcripts={transcripts} />
          <Composer ticket={ticket} mode={mode} onModeDone={() => setMode(null)} onSent={onSent} />
        </SpaceBetween>
      </div>
      {drawerOpen && (
        <div style={{ width: 320, flex: '0 0 320px' }} data-testid="contact-drawer">
          <Suspense fallback={<Spinner />}>
            <ContactDrawer ticket={ticket} onClose={() => setDrawerOpen(false)} onTicket={setTicket} />
          </Suspense>
        </div>
      )}
      {deleting && (
        <ConfirmModal
          header={t('tickets.message.deleteTitle')}
          cancelText={t('tickets.closeAll.no')}
          confirmText={t('tickets.closeAll.yes')}
          running={false}
          onDismiss={() => setDeleting(null)}
          onConfirm={() => {
            const target = deleting;
            setDeleting(null);
            deleteMessage(target.id).then(
              () => messages.upsert({ ...target, isDeleted: true }),
              (err: unknown) => notifications.error(err),
            );
          }}
        >
          {t('tickets.message.deleteText')}
        </ConfirmModal>
      )}
    </div>
  );
}
