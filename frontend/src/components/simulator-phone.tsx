import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ButtonDropdown from '@cloudscape-design/components/button-dropdown';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Textarea from '@cloudscape-design/components/textarea';
import { useCallback, useEffect, useEffectEvent, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  SIMULATOR_MEDIA_MAX_BYTES,
  listCustomerChat,
  sendSimulatedMedia,
  sendSimulatedMessage,
  simulateRead,
  type ChatEntry,
  type SimulatedCustomer,
  type SimulatorReceived,
} from '@/api/simulator';
import { CHAT_BUBBLE_CLASS, ChatColors, chatColor } from '@/components/chat-colors';
import { useNotifications } from '@/components/notifications';
import { renderWhatsappMarkup, stripWhatsappMarkup } from '@/components/whatsapp-markup';

/**
 * A simulated customer's phone (decisions D41): the whole chat as their phone shows it — both sides in
 * order, WhatsApp's formatting, quotes, files, reactions and ticks — and the composer to write, reply, send a
 * file or react as them. Used by the phone simulator page and by the flow editor's test panel (D160).
 */
/** How often the open chat is read again (both sides, new acks), while the page is visible. */
export const POLL_MS = 2000;

/** The reactions the customer can send (WhatsApp's quick row). */
export const REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;

const pad = (n: number) => String(n).padStart(2, '0');
const timeOf = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : `${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

/** The spec's ack marks: 0 clock, 1 one check, 2 two checks, 3–4 two blue checks (read / played). */
const ACK_MARK = ['🕓', '✓', '✓✓', '✓✓', '✓✓'] as const;
const ackLevel = (ack: number): number => Math.max(0, Math.min(4, Math.trunc(ack)));

function AckMark({ ack }: { ack: number }) {
  const { t } = useTranslation();
  const label = t(`simulator.ack.${ackLevel(ack)}`);
  return (
    <span role="img" aria-label={label} title={label} style={ack >= 3 ? { color: chatColor.read } : undefined}>
      {ACK_MARK[ackLevel(ack)]}
    </span>
  );
}

type I18n = { t: (key: string) => string; exists: (key: string) => boolean };

/** A kind's label ('[imagem]') when a message has no text. */
const typeLabel = (type: string, i18n: I18n): string => {
  const key = `simulator.types.${type}`;
  return i18n.exists(key) ? i18n.t(key) : `[${type}]`;
};

/** One line of a quoted message: its words without markers, else its file or kind. */
const quoteTextOf = (message: ChatEntry['message'], i18n: I18n): string =>
  stripWhatsappMarkup(message.body) || message.filename || typeLabel(message.type, i18n);

/** The file of a message, drawn as WhatsApp does: pictures and videos inline, audio playable, others a link. */
function MessageMedia({ message }: { message: ChatEntry['message'] }) {
  const { t, i18n } = useTranslation();
  const url = message.mediaUrl;
  if (!url) return null;
  if (message.type === 'image' || message.type === 'sticker') {
    return (
      <a href={url} target="_blank" rel="noopener noreferrer">
        <img
          src={url}
          alt={message.filename ?? t('simulator.types.image')}
          style={{ display: 'block', maxWidth: 240, maxHeight: 240, borderRadius: 6 }}
        />
      </a>
    );
  }
  if (message.type === 'video') return <video src={url} controls style={{ display: 'block', maxWidth: 260 }} />;
  if (message.type === 'audio') return <audio src={url} controls preload="metadata" style={{ display: 'block' }} />;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer" download={message.filename}>
      📎 {message.filename ?? typeLabel(message.type, i18n)}
    </a>
  );
}

/** What a message shows besides its file: its text in WhatsApp's formatting, a card, a place or its kind. */
function MessageText({ entry }: { entry: ChatEntry }) {
  const { i18n } = useTranslation();
  const message = entry.message;
  const received = entry.side === 'received' ? entry.message : null;
  if (received?.vCard) return <div>👤 {message.body || typeLabel('contact', i18n)}</div>;
  if (received?.latitude !== undefined && received.longitude !== undefined) {
    return (
      <div>
        📍 {message.body ? `${message.body} ` : ''}({received.latitude}, {received.longitude})
      </div>
    );
  }
  if (message.body) return <div data-field="body">{renderWhatsappMarkup(message.body)}</div>;
  if (message.mediaUrl) return null;
  return <div>{message.filename ? `📎 ${message.filename}` : typeLabel(message.type, i18n)}</div>;
}

/**
 * One bubble of the customer's phone: their own messages on the right in the outgoing colour with WhatsApp's
 * ticks, the business's on the left with the customer's read state; a quoted message above the text, the
 * customer's reaction below it, and the actions (reply; react to what they received).
 */
function ChatBubble({
  entry,
  quoted,
  reaction,
  onReply,
  onReact,
}: {
  entry: ChatEntry;
  quoted: ChatEntry | undefined;
  reaction: string | undefined;
  onReply: (entry: ChatEntry) => void;
  onReact: (message: SimulatorReceived, emoji: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const own = entry.side === 'sent';
  const message = entry.message;
  const received = entry.side === 'received' ? entry.message : null;
  const at = entry.side === 'sent' ? entry.message.sentAt : entry.message.receivedAt;
  return (
    <div style={{ display: 'flex', justifyContent: own ? 'flex-end' : 'flex-start' }}>
      <div
        data-testid={own ? 'simulator-sent' : 'simulator-received'}
        className={CHAT_BUBBLE_CLASS}
        style={{
          background: own ? chatColor.outgoing : chatColor.incoming,
          borderRadius: 8,
          padding: '6px 10px',
          maxWidth: '85%',
          boxShadow: '0 1px 1px rgba(0,0,0,0.15)',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
        }}
      >
        {message.quotedProviderMessageId && (
          <div
            data-testid="simulator-quote"
            style={{
              borderInlineStart: `4px solid ${chatColor.quoteBar}`,
              background: chatColor.quoteBackground,
              borderRadius: 4,
              padding: '2px 6px',
              marginBottom: 4,
              fontSize: 12,
            }}
          >
            <div style={{ fontWeight: 'bold' }}>
              {quoted?.side === 'sent' ? t('simulator.chat.you') : t('simulator.chat.business')}
            </div>
            <div>{quoted ? quoteTextOf(quoted.message, i18n) : t('simulator.chat.quoteMissing')}</div>
          </div>
        )}
        {received?.deleted ? (
          <div style={{ fontStyle: 'italic', color: chatColor.meta }}>{t('simulator.chat.deleted')}</div>
        ) : (
          <>
            <MessageMedia message={message} />
            <MessageText entry={entry} />
          </>
        )}
        <div
          style={{
            display: 'flex',
            justifyContent: 'flex-end',
            alignItems: 'center',
            gap: 4,
            fontSize: 11,
            color: chatColor.meta,
          }}
        >
          {received?.edited && !received.deleted && <span>{t('simulator.chat.edited')}</span>}
          <span>{timeOf(at)}</span>
          <AckMark ack={message.ack} />
          <Button
            variant="inline-icon"
            iconName="undo"
            ariaLabel={t('simulator.reply')}
            onClick={() => onReply(entry)}
          />
          {received && !received.deleted && (
            <ButtonDropdown
              variant="inline-icon"
              ariaLabel={t('simulator.react')}
              items={REACTIONS.map((emoji) => ({ id: emoji, text: emoji }))}
              onItemClick={({ detail }) => onReact(received, detail.id)}
            />
          )}
        </div>
        {reaction && (
          <div data-testid="simulator-reaction" aria-label={t('simulator.chat.reaction', { emoji: reaction })}>
            {reaction}
          </div>
        )}
      </div>
    </div>
  );
}

/** The customer's latest reaction to each message (an empty emoji takes it back), by provider id. */
const reactionsOf = (entries: ChatEntry[]): Map<string, string> => {
  const reactions = new Map<string, string>();
  for (const entry of entries) {
    if (entry.side !== 'sent') continue;
    const m = entry.message;
    if (m.type !== 'reaction' || !m.targetProviderMessageId) continue;
    if (m.emoji) reactions.set(m.targetProviderMessageId, m.emoji);
    else reactions.delete(m.targetProviderMessageId);
  }
  return reactions;
};

export function SimulatorPhone({
  whatsappId,
  customer,
  compact = false,
}: {
  whatsappId: number;
  customer: SimulatedCustomer;
  /** A narrower chat (the flow editor's side panel). */
  compact?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const notify = useNotifications();
  const [messages, setMessages] = useState<ChatEntry[] | null>(null);
  const [replyTo, setReplyTo] = useState<ChatEntry | null>(null);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const refresh = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const list = await listCustomerChat(whatsappId, customer.number, signal ? { signal } : {});
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

  /** A reply quotes the message chosen with 'Responder' (once). */
  const quoting = () => {
    const quoted = replyTo ? { quotedProviderMessageId: replyTo.message.providerMessageId } : {};
    setReplyTo(null);
    return quoted;
  };

  const sendText = () => {
    if (sending || text.trim() === '') return;
    const body = text;
    setText('');
    const quoted = quoting();
    void run(() => sendSimulatedMessage(whatsappId, { ...customer, body, ...quoted }));
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
    const quoted = quoting();
    void run(() => sendSimulatedMedia(whatsappId, { ...customer, ...caption, ...quoted }, file));
  };

  const react = (message: SimulatorReceived, emoji: string) =>
    void run(() => sendSimulatedMessage(whatsappId, { ...customer, reactTo: message.providerMessageId, emoji }));

  // Reactions show under the message they react to, not as bubbles of their own.
  const bubbles = (messages ?? []).filter((entry) => !(entry.side === 'sent' && entry.message.type === 'reaction'));
  const reactions = reactionsOf(messages ?? []);
  const byProviderId = new Map((messages ?? []).map((entry) => [entry.message.providerMessageId, entry]));

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
        <ChatColors />
        <div
          aria-label={t('simulator.chat.label')}
          role="log"
          style={{
            minHeight: compact ? 200 : 240,
            maxHeight: compact ? 360 : 480,
            overflowY: 'auto',
            display: 'flex',
            flexDirection: 'column',
            gap: 8,
          }}
        >
          {messages === null ? (
            <Spinner />
          ) : bubbles.length === 0 ? (
            <Box color="text-body-secondary">{t('simulator.chat.empty')}</Box>
          ) : (
            bubbles.map((entry) => (
              <ChatBubble
                key={entry.message.id}
                entry={entry}
                quoted={
                  entry.message.quotedProviderMessageId
                    ? byProviderId.get(entry.message.quotedProviderMessageId)
                    : undefined
                }
                reaction={reactions.get(entry.message.providerMessageId)}
                onReply={setReplyTo}
                onReact={react}
              />
            ))
          )}
        </div>
        {replyTo && (
          <div
            data-testid="simulator-replying"
            style={{
              display: 'flex',
              justifyContent: 'space-between',
              alignItems: 'center',
              borderInlineStart: `4px solid ${chatColor.quoteBar}`,
              paddingInlineStart: 8,
            }}
          >
            <Box fontSize="body-s">
              <b>{t('simulator.composer.replying')}</b> {quoteTextOf(replyTo.message, i18n)}
            </Box>
            <Button
              variant="icon"
              iconName="close"
              ariaLabel={t('simulator.composer.cancelReply')}
              onClick={() => setReplyTo(null)}
            />
          </div>
        )}
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
