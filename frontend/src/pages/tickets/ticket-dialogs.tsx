import Autosuggest from '@cloudscape-design/components/autosuggest';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Modal from '@cloudscape-design/components/modal';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Textarea from '@cloudscape-design/components/textarea';
import Toggle from '@cloudscape-design/components/toggle';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { FORWARD_PAUSE_MS, forwardMessage, sendTextMessage } from '@/api/messages';
import {
  createTicket,
  getTicketLog,
  searchContacts,
  transitions,
  type ContactSummary,
  type OtherOpenTicket,
  type Ticket,
  type TicketLogEntry,
} from '@/api/tickets';
import { useNotifications } from '@/components/notifications';
import { useRequest } from '@/hooks/use-request';
import { formatPhone, formatShortDateTime } from './format';
import { useTicketActions, type TicketDialog } from './ticket-actions';
import { settingOn, useTicketScreen } from './ticket-screen-context';

/** Core spec §5: contact searches start at 3 characters. */
export const CONTACT_SEARCH_MIN = 3;

function Dialog({
  header,
  onClose,
  children,
  primary,
}: {
  header: string;
  onClose: () => void;
  children: ReactNode;
  primary?: { text: string; onClick: () => void; disabled?: boolean; loading?: boolean };
}) {
  const { t } = useTranslation();
  return (
    <Modal
      visible
      header={header}
      onDismiss={() => {
        if (!primary?.loading) onClose();
      }}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onClose} disabled={primary?.loading}>
              {primary ? t('tickets.dialogs.cancel') : t('common.close')}
            </Button>
            {primary && (
              <Button variant="primary" onClick={primary.onClick} disabled={primary.disabled} loading={primary.loading}>
                {primary.text}
              </Button>
            )}
          </SpaceBetween>
        </Box>
      }
    >
      {children}
    </Modal>
  );
}

/** Contact search from 3 characters (new ticket, forward, send contact). */
function ContactPicker({
  value,
  onChange,
  label,
}: {
  value: ContactSummary | null;
  onChange: (c: ContactSummary | null) => void;
  label: string;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(value?.name ?? '');
  const [found, setFound] = useState<ContactSummary[]>([]);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    if (text.trim().length < CONTACT_SEARCH_MIN || text === value?.name) return undefined;
    const controller = new AbortController();
    setLoading(true);
    const timer = setTimeout(() => {
      searchContacts(text.trim(), { signal: controller.signal }).then(
        (contacts) => {
          setFound(contacts);
          setLoading(false);
        },
        () => setLoading(false),
      );
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text]);
  return (
    <FormField label={label} description={t('tickets.dialogs.contactSearchHint')}>
      <Autosuggest
        value={text}
        onChange={({ detail }) => {
          setText(detail.value);
          if (value) onChange(null);
        }}
        onSelect={({ detail }) => {
          const contact = found.find((c) => String(c.id) === detail.value);
          if (contact) {
            setText(contact.name);
            onChange(contact);
          }
        }}
        options={found.map((c) => ({ value: String(c.id), label: c.name, description: formatPhone(c.number) }))}
        statusType={loading ? 'loading' : 'finished'}
        loadingText={t('common.loading')}
        placeholder={t('tickets.dialogs.contactPlaceholder')}
        ariaLabel={label}
        enteredTextLabel={(v) => v}
        filteringType="manual"
      />
    </FormField>
  );
}

/** The company's queues as select options (GET /queue, in the company's order). */
const queueOptions = (queues: { id: number; name: string }[]): SelectProps.Option[] =>
  queues.map((q) => ({ value: String(q.id), label: q.name }));

/** The user's own queue when they have exactly one: the accept and new-ticket dialogs start on it. */
const soleQueueOf = (user: { queues: { id: number; name: string }[] }): SelectProps.Option | null =>
  user.queues.length === 1 ? { value: String(user.queues[0]!.id), label: user.queues[0]!.name } : null;

/**
 * Accept a ticket without a queue: choose the queue first (core spec §4). Every queue of the company is
 * offered; the user's own (when they have one) is preselected.
 */
function AcceptQueueDialog({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  const actions = useTicketActions();
  const { user, queues } = useTicketScreen();
  const [queue, setQueue] = useState<SelectProps.Option | null>(soleQueueOf(user));
  const [running, setRunning] = useState(false);
  const [error, setError] = useState('');
  return (
    <Dialog
      header={t('tickets.dialogs.accept.title')}
      onClose={onClose}
      primary={{
        text: t('tickets.actions.accept'),
        loading: running,
        onClick: () => {
          if (!queue) return setError(t('tickets.dialogs.selectQueue'));
          setRunning(true);
          void actions.accept(ticket, Number(queue.value)).then((ok) => (ok ? onClose() : setRunning(false)));
        },
      }}
    >
      <FormField label={t('tickets.dialogs.queue')} errorText={error}>
        <Select
          selectedOption={queue}
          onChange={({ detail }) => {
            setQueue(detail.selectedOption);
            setError('');
          }}
          options={queueOptions(queues)}
          placeholder={t('tickets.dialogs.selectQueue')}
        />
      </FormField>
    </Dialog>
  );
}

/** 'Ticket already open by another user' (core spec §4). */
function OtherTicketDialog({ other, onClose }: { other: OtherOpenTicket; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog header={t('tickets.dialogs.other.title')} onClose={onClose}>
      {t('tickets.dialogs.other.text', {
        user: other.user?.name ?? '—',
        queue: other.queue?.name ?? t('tickets.list.noQueue'),
      })}
    </Dialog>
  );
}

/** Transfer: a queue is required, a user optional (core spec §4, §5). */
function TransferDialog({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  const actions = useTicketActions();
  const { users, queues } = useTicketScreen();
  const [queue, setQueue] = useState<SelectProps.Option | null>(null);
  const [target, setTarget] = useState<SelectProps.Option | null>(null);
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  const [running, setRunning] = useState(false);
  return (
    <Dialog
      header={t('tickets.dialogs.transfer.title')}
      onClose={onClose}
      primary={{
        text: t('tickets.dialogs.transfer.confirm'),
        loading: running,
        onClick: () => {
          if (!queue) return setError(t('tickets.dialogs.selectQueue'));
          setRunning(true);
          void actions
            .change(
              ticket,
              transitions.transfer(Number(queue.value), target?.value ? Number(target.value) : null, message),
              {
                leave: true,
              },
            )
            .then((ok) => (ok ? onClose() : setRunning(false)));
        },
      }}
    >
      <SpaceBetween size="s">
        <FormField label={t('tickets.dialogs.queue')} errorText={error}>
          <Select
            selectedOption={queue}
            onChange={({ detail }) => {
              setQueue(detail.selectedOption);
              setError('');
            }}
            options={queueOptions(queues)}
            placeholder={t('tickets.dialogs.selectQueue')}
          />
        </FormField>
        <FormField label={t('tickets.dialogs.transfer.user')}>
          <Select
            selectedOption={target}
            onChange={({ detail }) => setTarget(detail.selectedOption)}
            options={[
              { value: '', label: t('tickets.dialogs.transfer.noUser') },
              ...users.map((u) => ({ value: String(u.id), label: u.name })),
            ]}
            placeholder={t('tickets.dialogs.transfer.noUser')}
          />
        </FormField>
        <FormField label={t('tickets.dialogs.transfer.message')}>
          <Textarea value={message} onChange={({ detail }) => setMessage(detail.value)} rows={2} />
        </FormField>
      </SpaceBetween>
    </Dialog>
  );
}

/** New ticket (core spec §5): contact (search from 3), queue required (a sole queue preselected), connection. */
function NewTicketDialog({ onClose, initialContact }: { onClose: () => void; initialContact?: ContactSummary }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notifications = useNotifications();
  const actions = useTicketActions();
  const { user, connections, queues, wantConnections } = useTicketScreen();
  useEffect(wantConnections, [wantConnections]);
  const [contact, setContact] = useState<ContactSummary | null>(initialContact ?? null);
  const [queue, setQueue] = useState<SelectProps.Option | null>(soleQueueOf(user));
  const [picked, setConnection] = useState<SelectProps.Option | null>(null);
  // The user's default connection until another is picked (the list arrives after the dialog opens).
  const defaultConnection = connections.find((c) => c.id === user.whatsappId);
  const connection =
    picked ?? (defaultConnection ? { value: String(defaultConnection.id), label: defaultConnection.name } : null);
  const [error, setError] = useState('');
  const [running, setRunning] = useState(false);
  return (
    <Dialog
      header={t('tickets.dialogs.newTicket.title')}
      onClose={onClose}
      primary={{
        text: t('tickets.dialogs.ok'),
        disabled: !contact,
        loading: running,
        onClick: () => {
          if (!contact) return;
          if (!queue) return setError(t('tickets.dialogs.selectQueue'));
          setRunning(true);
          createTicket({
            contactId: contact.id,
            queueId: Number(queue.value),
            whatsappId: connection ? Number(connection.value) : null,
            userId: user.id,
            status: 'open',
          }).then(
            (ticket) => {
              actions.publish(ticket, { follow: true });
              onClose();
              void navigate(`/tickets/${ticket.uuid}`);
            },
            (err: unknown) => {
              setRunning(false);
              onClose();
              if (!actions.handleConflict(err)) notifications.error(err);
            },
          );
        },
      }}
    >
      <SpaceBetween size="s">
        <ContactPicker label={t('tickets.dialogs.contact')} value={contact} onChange={setContact} />
        <FormField label={t('tickets.dialogs.queue')} errorText={error}>
          <Select
            selectedOption={queue}
            onChange={({ detail }) => {
              setQueue(detail.selectedOption);
              setError('');
            }}
            options={queueOptions(queues)}
            placeholder={t('tickets.dialogs.selectQueue')}
          />
        </FormField>
        <FormField label={t('tickets.dialogs.connection')}>
          <Select
            selectedOption={connection}
            onChange={({ detail }) => setConnection(detail.selectedOption)}
            options={connections.map((c) => ({ value: String(c.id), label: c.name }))}
            placeholder={t('tickets.dialogs.selectConnection')}
          />
        </FormField>
      </SpaceBetween>
    </Dialog>
  );
}

/** The ticket's timeline (core spec §3 Ticket log entry). */
export function LogDialog({ ticket, onClose }: { ticket: Pick<Ticket, 'id'>; onClose: () => void }) {
  const { t } = useTranslation();
  const log = useRequest((signal) => getTicketLog(ticket.id, { signal }), [ticket.id]);
  return (
    <Dialog header={t('tickets.dialogs.log.title', { id: ticket.id })} onClose={onClose}>
      {log.status === 'loading' && <Spinner />}
      {log.status === 'error' && <Box color="text-status-error">{t('tickets.dialogs.log.error')}</Box>}
      {log.status === 'ready' && (
        <ol style={{ paddingLeft: 16 }} aria-label={t('tickets.dialogs.log.title', { id: ticket.id })}>
          {log.data.map((entry: TicketLogEntry, i: number) => (
            <li key={i} data-testid="log-entry">
              <b>{formatShortDateTime(entry.createdAt)}</b> —{' '}
              {t(`tickets.log.${entry.type}`, {
                defaultValue: entry.type,
                user: entry.user?.name ?? t('tickets.log.system'),
                queue: entry.queue?.name ?? t('tickets.list.noQueue'),
              })}
            </li>
          ))}
        </ol>
      )}
    </Dialog>
  );
}

/** Sends a contact card (vCard) into the ticket. */
function SendContactDialog({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  const notifications = useNotifications();
  const [contact, setContact] = useState<ContactSummary | null>(null);
  const [running, setRunning] = useState(false);
  return (
    <Dialog
      header={t('tickets.dialogs.sendContact.title')}
      onClose={onClose}
      primary={{
        text: t('tickets.composer.send'),
        disabled: !contact,
        loading: running,
        onClick: () => {
          if (!contact) return;
          setRunning(true);
          const vCard = `BEGIN:VCARD\nVERSION:3.0\nFN:${contact.name}\nTEL;type=CELL;waid=${contact.number}:+${contact.number}\nEND:VCARD`;
          sendTextMessage(ticket.id, { body: contact.name, vCard }).then(onClose, (err: unknown) => {
            notifications.error(err);
            setRunning(false);
          });
        },
      }}
    >
      <ContactPicker label={t('tickets.dialogs.contact')} value={contact} onChange={setContact} />
    </Dialog>
  );
}

/** Forward (core spec §5): a contact (search from 3), the sign toggle; about 900 ms between forwards. */
function ForwardDialog({ messageIds, onClose }: { messageIds: string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const notifications = useNotifications();
  const { settings } = useTicketScreen();
  const [contact, setContact] = useState<ContactSummary | null>(null);
  const [sign, setSign] = useState(settingOn(settings, 'sendSignMessage'));
  const [running, setRunning] = useState(false);
  const forward = async () => {
    if (messageIds.length === 0) {
      notifications.notify('error', t('tickets.dialogs.forward.nothing'));
      return;
    }
    if (!contact) return;
    setRunning(true);
    try {
      for (const [i, id] of messageIds.entries()) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, FORWARD_PAUSE_MS));
        await forwardMessage(id, contact.id, sign);
      }
      notifications.success(t('tickets.dialogs.forward.success'));
      onClose();
    } catch (err) {
      notifications.error(err);
      setRunning(false);
    }
  };
  return (
    <Dialog
      header={t('tickets.dialogs.forward.title')}
      onClose={onClose}
      primary={{
        text: t('tickets.dialogs.forward.confirm'),
        disabled: !contact,
        loading: running,
        onClick: () => void forward(),
      }}
    >
      <SpaceBetween size="s">
        <ContactPicker label={t('tickets.dialogs.contact')} value={contact} onChange={setContact} />
        <Toggle checked={sign} onChange={({ detail }) => setSign(detail.checked)}>
          {t('tickets.composer.signature')}
        </Toggle>
      </SpaceBetween>
    </Dialog>
  );
}

/** The open dialog of the ticket screen (loaded on first use). */
export function TicketDialogs({
  dialog,
  onClose,
}: {
  dialog: TicketDialog;
  onClose: () => void;
  loadingText?: string;
}) {
  switch (dialog.kind) {
    case 'acceptQueue':
      return <AcceptQueueDialog ticket={dialog.ticket} onClose={onClose} />;
    case 'otherTicket':
      return <OtherTicketDialog other={dialog.other} onClose={onClose} />;
    case 'transfer':
      return <TransferDialog ticket={dialog.ticket} onClose={onClose} />;
    case 'newTicket':
      return <NewTicketDialog onClose={onClose} {...(dialog.contact ? { initialContact: dialog.contact } : {})} />;
    case 'log':
      return <LogDialog ticket={dialog.ticket} onClose={onClose} />;
    case 'sendContact':
      return <SendContactDialog ticket={dialog.ticket} onClose={onClose} />;
    case 'forward':
      return <ForwardDialog messageIds={dialog.messageIds} onClose={onClose} />;
  }
}
