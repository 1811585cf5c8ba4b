import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ButtonDropdown from '@cloudscape-design/components/button-dropdown';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Textarea from '@cloudscape-design/components/textarea';
import { useCallback, useEffect, useEffectEvent, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '@/api/api-error';
import {
  SIMULATOR_MEDIA_MAX_BYTES,
  isCustomerNumber,
  listCustomerReceived,
  listSimulatorReceived,
  sendSimulatedMedia,
  sendSimulatedMessage,
  simulateRead,
  type SimulatedCustomer,
  type SimulatorReceived,
} from '@/api/simulator';
import { useNotifications } from '@/components/notifications';
import { useCurrentUser } from '@/components/shell/shell-context';
import { AccessDeniedPage } from '@/pages/errors/access-denied-page';
import { can, connectionsRoleOf } from '@/permissions';

/** How often the open chat asks what the customer received, while the page is visible. */
export const POLL_MS = 2000;

/** The reactions the customer can send (WhatsApp's quick row). */
export const REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;

const MAX_RECENT = 8;

const pad = (n: number) => String(n).padStart(2, '0');
const timeOf = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : `${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

/** The spec's ack marks: 0 clock, 1 one check, 2 two checks, 3–4 two blue checks (read / played). */
const ACK_MARK = ['🕓', '✓', '✓✓', '✓✓', '✓✓'] as const;
const ackKey = (ack: number): string => `simulator.ack.${Math.max(0, Math.min(4, Math.trunc(ack)))}`;

function AckMark({ ack }: { ack: number }) {
  const { t } = useTranslation();
  const label = t(ackKey(ack));
  const read = ack >= 3;
  return (
    <span role="img" aria-label={label} title={label} style={read ? { color: '#34b7f1' } : undefined}>
      {ACK_MARK[Math.max(0, Math.min(4, Math.trunc(ack)))]}
    </span>
  );
}

/** What a received message shows: its text, else its file name, else its kind. */
const contentOf = (m: SimulatorReceived, i18n: { t: (key: string) => string; exists: (key: string) => boolean }) => {
  if (m.filename && m.body) return `📎 ${m.filename} — ${m.body}`;
  if (m.filename) return `📎 ${m.filename}`;
  if (m.body) return m.body;
  const key = `simulator.types.${m.type}`;
  return i18n.exists(key) ? i18n.t(key) : `[${m.type}]`;
};

function ReceivedBubble({
  message,
  onReact,
}: {
  message: SimulatorReceived;
  onReact: (message: SimulatorReceived, emoji: string) => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <div
      data-testid="simulator-received"
      style={{ background: 'rgba(127,127,127,0.12)', borderRadius: 8, padding: '6px 10px', maxWidth: '85%' }}
    >
      <div style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{contentOf(message, i18n)}</div>
      <SpaceBetween direction="horizontal" size="xs" alignItems="center">
        <Box variant="small" color="text-body-secondary">
          {timeOf(message.receivedAt)}
        </Box>
        <AckMark ack={message.ack} />
        <ButtonDropdown
          variant="inline-icon"
          ariaLabel={t('simulator.react')}
          items={REACTIONS.map((emoji) => ({ id: emoji, text: emoji }))}
          onItemClick={({ detail }) => onReact(message, detail.id)}
        />
      </SpaceBetween>
    </div>
  );
}

type Probe = 'checking' | 'ready' | 'unavailable' | 'error';

function CustomerPicker({
  recent,
  current,
  onPick,
}: {
  recent: SimulatedCustomer[];
  current: SimulatedCustomer | null;
  onPick: (customer: SimulatedCustomer) => void;
}) {
  const { t } = useTranslation();
  const [number, setNumber] = useState('');
  const [name, setName] = useState('');
  const [numberError, setNumberError] = useState('');
  const submit = () => {
    const digits = number.replace(/\D/g, '');
    if (!isCustomerNumber(digits)) {
      setNumberError(t('simulator.customer.invalidNumber'));
      return;
    }
    setNumberError('');
    const trimmed = name.trim();
    onPick(trimmed ? { number: digits, name: trimmed } : { number: digits });
  };
  return (
    <Container header={<Header variant="h2">{t('simulator.customer.title')}</Header>}>
      <SpaceBetween size="s">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <SpaceBetween direction="horizontal" size="s" alignItems="end">
            <FormField
              label={t('simulator.customer.number')}
              description={t('simulator.customer.numberHint')}
              errorText={numberError}
            >
              <Input value={number} inputMode="tel" onChange={({ detail }) => setNumber(detail.value)} />
            </FormField>
            <FormField label={t('simulator.customer.name')}>
              <Input value={name} onChange={({ detail }) => setName(detail.value)} />
            </FormField>
            <Button formAction="submit">{t('simulator.customer.open')}</Button>
          </SpaceBetween>
        </form>
        {recent.length > 0 && (
          <SpaceBetween direction="horizontal" size="xs" alignItems="center">
            <Box variant="small">{t('simulator.customer.recent')}</Box>
            {recent.map((c) => (
              <Button
                key={c.number}
                variant={current?.number === c.number ? 'primary' : 'normal'}
                onClick={() => onPick(c)}
              >
                {c.name ? `${c.name} (${c.number})` : c.number}
              </Button>
            ))}
          </SpaceBetween>
        )}
      </SpaceBetween>
    </Container>
  );
}

function Phone({ whatsappId, customer }: { whatsappId: number; customer: SimulatedCustomer }) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const [messages, setMessages] = useState<SimulatorReceived[] | null>(null);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const refresh = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const list = await listCustomerReceived(whatsappId, customer.number, signal ? { signal } : {});
        if (!signal?.aborted) setMessages(list);
      } catch (err) {
        if (signal?.aborted || (err instanceof DOMException && err.name === 'AbortError')) return;
        throw err;
      }
    },
    [whatsappId, customer.number],
  );

  const poll = useEffectEvent((signal: AbortSignal) => {
    if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return;
    // A failed poll stays quiet: the next one tries again (the first load's failure is shown below).
    refresh(signal).catch(() => undefined);
  });

  const firstLoadFailed = useEffectEvent((err: unknown) => {
    notify.error(err);
    setMessages([]);
  });

  useEffect(() => {
    const controller = new AbortController();
    setMessages(null);
    refresh(controller.signal).catch(firstLoadFailed);
    const timer = setInterval(() => poll(controller.signal), POLL_MS);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [refresh]);

  const run = async (action: () => Promise<unknown>, success?: string) => {
    setSending(true);
    try {
      await action();
      if (success) notify.success(success);
      await refresh().catch(() => undefined);
    } catch (err) {
      notify.error(err);
    } finally {
      setSending(false);
    }
  };

  const sendText = () => {
    if (sending || text.trim() === '') return;
    const body = text;
    setText('');
    void run(() => sendSimulatedMessage(whatsappId, { ...customer, body }));
  };

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > SIMULATOR_MEDIA_MAX_BYTES) {
      notify.error(t('simulator.composer.fileTooLarge', { name: file.name }));
      return;
    }
    const caption = text.trim() === '' ? {} : { body: text };
    setText('');
    void run(() => sendSimulatedMedia(whatsappId, { ...customer, ...caption }, file));
  };

  const react = (message: SimulatorReceived, emoji: string) =>
    void run(() => sendSimulatedMessage(whatsappId, { ...customer, reactTo: message.providerMessageId, emoji }));

  const markRead = () =>
    void run(() => simulateRead(whatsappId, { number: customer.number, ack: 3 }), t('simulator.markRead.success'));

  return (
    <Container
      header={
        <Header
          variant="h2"
          description={customer.number}
          actions={
            <Button onClick={markRead} disabled={sending}>
              {t('simulator.markRead.button')}
            </Button>
          }
        >
          {customer.name ?? customer.number}
        </Header>
      }
    >
      <SpaceBetween size="m">
        <div
          aria-label={t('simulator.chat.label')}
          role="log"
          style={{
            minHeight: 240,
            maxHeight: 480,
            overflowY: 'auto',
            display: 'flex',
            flexDirection: 'column',
            gap: 8,
          }}
        >
          {messages === null ? (
            <Spinner />
          ) : messages.length === 0 ? (
            <Box color="text-body-secondary">{t('simulator.chat.empty')}</Box>
          ) : (
            messages.map((m) => <ReceivedBubble key={m.id} message={m} onReact={react} />)
          )}
        </div>
        <FormField label={t('simulator.composer.label')} description={t('simulator.composer.hint')} stretch>
          <Textarea
            value={text}
            rows={2}
            placeholder={t('simulator.composer.placeholder')}
            onChange={({ detail }) => setText(detail.value)}
            onKeyDown={(event) => {
              if (event.detail.key === 'Enter' && !event.detail.shiftKey) {
                event.preventDefault();
                sendText();
              }
            }}
          />
        </FormField>
        <SpaceBetween direction="horizontal" size="xs">
          <Button variant="primary" onClick={sendText} disabled={sending} loading={sending}>
            {t('simulator.composer.send')}
          </Button>
          <Button iconName="upload" onClick={() => fileInput.current?.click()} disabled={sending}>
            {t('simulator.composer.attach')}
          </Button>
          <input
            ref={fileInput}
            type="file"
            hidden
            aria-label={t('simulator.composer.attach')}
            data-testid="simulator-file"
            onChange={onFile}
          />
        </SpaceBetween>
      </SpaceBetween>
    </Container>
  );
}

function Simulator({ whatsappId }: { whatsappId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [probe, setProbe] = useState<Probe>(
    Number.isInteger(whatsappId) && whatsappId > 0 ? 'checking' : 'unavailable',
  );
  const [recent, setRecent] = useState<SimulatedCustomer[]>([]);
  const [customer, setCustomer] = useState<SimulatedCustomer | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!(Number.isInteger(whatsappId) && whatsappId > 0)) return undefined;
    const controller = new AbortController();
    setProbe('checking');
    listSimulatorReceived(whatsappId, { limit: 1 }, { signal: controller.signal }).then(
      () => setProbe('ready'),
      (err: unknown) => {
        if (controller.signal.aborted) return;
        setProbe(err instanceof ApiError && err.status === 404 ? 'unavailable' : 'error');
      },
    );
    return () => controller.abort();
  }, [whatsappId, attempt]);

  const pick = (next: SimulatedCustomer) => {
    setCustomer(next);
    setRecent((list) => [next, ...list.filter((c) => c.number !== next.number)].slice(0, MAX_RECENT));
  };

  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description={t('simulator.description')}
          actions={<Button onClick={() => void navigate('/connections')}>{t('simulator.back')}</Button>}
        >
          {t('simulator.title')}
        </Header>
      }
    >
      {probe === 'checking' && <Spinner size="large" />}
      {probe === 'unavailable' && (
        <Alert type="info" header={t('simulator.unavailable.title')}>
          {t('simulator.unavailable.text')}
        </Alert>
      )}
      {probe === 'error' && (
        <Alert
          type="error"
          header={t('simulator.loadError')}
          action={<Button onClick={() => setAttempt((n) => n + 1)}>{t('common.retry')}</Button>}
        />
      )}
      {probe === 'ready' && (
        <SpaceBetween size="l">
          <CustomerPicker recent={recent} current={customer} onPick={pick} />
          {customer ? (
            <Phone key={customer.number} whatsappId={whatsappId} customer={customer} />
          ) : (
            <Box color="text-body-secondary">{t('simulator.customer.none')}</Box>
          )}
        </SpaceBetween>
      )}
    </ContentLayout>
  );
}

/**
 * /connections/:whatsappId/simulator (decisions D36, D41): the phone of the simulated customers of one
 * connection. Pick a customer, write, send a file or react as them, mark as read, and see what they
 * received with its ack. Connection managers only; a deployment without the simulator driver gets an info
 * message (the routes answer 404 there).
 */
export function SimulatorPage() {
  const user = useCurrentUser();
  const { whatsappId } = useParams();
  if (!can(connectionsRoleOf(user), 'connections-page:actionButtons')) return <AccessDeniedPage />;
  return <Simulator whatsappId={Number(whatsappId)} />;
}
