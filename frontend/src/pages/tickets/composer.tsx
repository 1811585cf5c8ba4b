import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ButtonDropdown from '@cloudscape-design/components/button-dropdown';
import FormField from '@cloudscape-design/components/form-field';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import Toggle from '@cloudscape-design/components/toggle';
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { editMessage, sendMediaMessage, sendTextMessage, type ButtonMessageKind, type Message } from '@/api/messages';
import { listComposerQuickMessages, type QuickMessage } from '@/api/quick-messages';
import type { Ticket } from '@/api/tickets';
import { chatColor } from '@/components/chat-colors';
import { useNotifications } from '@/components/notifications';
import { stripWhatsappMarkup } from '@/components/whatsapp-markup';
import { usePlan } from '@/components/shell/shell-context';
import { useTicketActions } from './ticket-actions';
import { settingOn, useTicketScreen } from './ticket-screen-context';

const AudioRecorder = lazy(async () => ({ default: (await import('./audio-recorder')).AudioRecorder }));
const ScheduleDialog = lazy(async () => ({
  default: (await import('../schedules/schedule-dialog')).ScheduleDialog,
}));
const ButtonMessageDialog = lazy(async () => ({
  default: (await import('./button-message-dialog')).ButtonMessageDialog,
}));

/** The "Botões" menu (core spec §2 interactive buttons): its items are the kinds POST /messages/{kind} takes. */
const BUTTON_KINDS: { id: ButtonMessageKind; label: string }[] = [
  { id: 'lista', label: 'tickets.buttons.list' },
  { id: 'copy', label: 'tickets.buttons.copy' },
  { id: 'call', label: 'tickets.buttons.call' },
  { id: 'URL', label: 'tickets.buttons.url' },
  { id: 'PIX', label: 'tickets.buttons.pix' },
];

/** Core spec §2: the signature toggle is kept in browser storage. */
export const SIGNATURE_KEY = 'signOption';
/** Core spec §9: quick-reply labels are cut at 90 characters. */
export const QUICK_REPLY_LABEL_MAX = 90;

/** The text sent with the signature on: the attendant's name in bold above it (the reference's format). */
export const signed = (text: string, name: string): string => `*${name}:*\n${text}`;

/** What the composer needs of a quick reply (GET /quick-messages/list). */
export type QuickReply = Pick<QuickMessage, 'id' | 'shortcode' | 'message'> & Partial<QuickMessage>;

/** Quick replies for a leading slash: the typed word after `/` filters by shortcode. */
export const quickReplyMatches = <R extends QuickReply>(text: string, replies: R[]): R[] | null => {
  if (!text.startsWith('/')) return null;
  const word = text.slice(1).toLowerCase();
  return replies.filter((r) => r.shortcode.toLowerCase().includes(word) || r.message.toLowerCase().includes(word));
};

export type ComposerMode = { kind: 'reply'; message: Message } | { kind: 'edit'; message: Message } | null;

/**
 * The message composer (core spec §2): text with Enter to send and Shift+Enter for a new line, quick
 * replies on a leading slash, private notes, the signature toggle (when the company's sendSignMessage is
 * on), reply and edit, files with a caption each, camera capture, audio recording (lazy), a contact
 * card and the "Botões" menu of interactive messages (lazy dialogs in button-message-dialog.tsx). Enabled only while the ticket is open or group (core spec §4).
 */
export function Composer({
  ticket,
  mode,
  onModeDone,
  onSent,
}: {
  ticket: Ticket;
  mode: ComposerMode;
  onModeDone: () => void;
  onSent: (message: Message) => void;
}) {
  const { t } = useTranslation();
  const notifications = useNotifications();
  const actions = useTicketActions();
  const { user, settings } = useTicketScreen();
  const enabled = ticket.status === 'open' || ticket.status === 'group';
  const signatureAllowed = settingOn(settings, 'sendSignMessage');
  const [text, setText] = useState('');
  const [isPrivate, setIsPrivate] = useState(false);
  const [sign, setSign] = useState(() => localStorage.getItem(SIGNATURE_KEY) !== 'false');
  const [sending, setSending] = useState(false);
  const [replies, setReplies] = useState<QuickReply[] | null>(null);
  const [files, setFiles] = useState<{ file: File; caption: string }[]>([]);
  const [recording, setRecording] = useState(false);
  const [buttonKind, setButtonKind] = useState<ButtonMessageKind | null>(null);
  const [scheduling, setScheduling] = useState(false);
  const { planFlags } = usePlan();
  const fileInput = useRef<HTMLInputElement | null>(null);
  const cameraInput = useRef<HTMLInputElement | null>(null);

  useEffect(() => {
    if (mode?.kind === 'edit') setText(mode.message.body);
  }, [mode]);

  // Quick replies load the first time a slash starts the text.
  useEffect(() => {
    if (!text.startsWith('/') || replies !== null) return;
    listComposerQuickMessages().then(setReplies, () => setReplies([]));
  }, [text, replies]);
  const matches = useMemo(() => (replies ? quickReplyMatches(text, replies) : null), [text, replies]);

  const toggleSign = (on: boolean) => {
    localStorage.setItem(SIGNATURE_KEY, String(on));
    setSign(on);
  };

  const send = async () => {
    const body = text.trim();
    if (!body || sending) return; // Core spec §5: empty or whitespace text is not sent.
    setSending(true);
    try {
      if (mode?.kind === 'edit') {
        onSent(await editMessage(mode.message.id, body));
      } else {
        const withSign = signatureAllowed && sign && !isPrivate ? signed(body, user.name) : body;
        onSent(
          await sendTextMessage(ticket.id, {
            body: withSign,
            ...(isPrivate ? { isPrivate: true } : {}),
            ...(mode?.kind === 'reply' ? { quotedMsg: mode.message } : {}),
          }),
        );
      }
      setText('');
      onModeDone();
    } catch (err) {
      notifications.error(err);
    } finally {
      setSending(false);
    }
  };

  const sendFiles = async () => {
    setSending(true);
    try {
      for (const { file, caption } of files) {
        onSent(await sendMediaMessage(ticket.id, file, file.name, caption, isPrivate));
      }
      setFiles([]);
    } catch (err) {
      notifications.error(err);
    } finally {
      setSending(false);
    }
  };

  const pickFiles = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (picked.length > 0) setFiles(picked.map((file) => ({ file, caption: '' })));
  };

  const sendAudio = async (blob: Blob) => {
    setRecording(false);
    setSending(true);
    try {
      onSent(await sendMediaMessage(ticket.id, blob, `audio-${Date.now()}.webm`, '', false));
    } catch (err) {
      notifications.error(err);
    } finally {
      setSending(false);
    }
  };

  if (!enabled) {
    return (
      <Box textAlign="center" color="text-body-secondary" padding="s">
        {t('tickets.composer.disabled')}
      </Box>
    );
  }

  return (
    <div data-testid="composer">
      {mode && (
        <div
          style={{
            borderLeft: `4px solid ${chatColor.quoteBar}`,
            padding: '2px 8px',
            marginBottom: 4,
            display: 'flex',
            justifyContent: 'space-between',
          }}
        >
          <Box fontSize="body-s">
            <b>{t(mode.kind === 'edit' ? 'tickets.composer.editing' : 'tickets.composer.replying')}</b>{' '}
            {stripWhatsappMarkup(mode.message.body)}
          </Box>
          <Button
            variant="icon"
            iconName="close"
            ariaLabel={t('tickets.composer.cancelMode')}
            onClick={() => {
              if (mode.kind === 'edit') setText('');
              onModeDone();
            }}
          />
        </div>
      )}
      {matches && matches.length > 0 && (
        <ul
          role="listbox"
          aria-label={t('tickets.composer.quickReplies')}
          style={{ margin: 0, padding: 0, maxHeight: 180, overflowY: 'auto' }}
        >
          {matches.map((reply) => (
            <li
              key={reply.id}
              role="option"
              aria-selected={false}
              style={{
                listStyle: 'none',
                padding: '4px 8px',
                cursor: 'pointer',
                borderBottom: '1px solid rgba(127,127,127,0.2)',
              }}
              onClick={() => setText(reply.message)}
            >
              <b>/{reply.shortcode}</b>{' '}
              {reply.message.length > QUICK_REPLY_LABEL_MAX
                ? `${reply.message.slice(0, QUICK_REPLY_LABEL_MAX)}...`
                : reply.message}
            </li>
          ))}
        </ul>
      )}
      {recording ? (
        <Suspense fallback={null}>
          <AudioRecorder onDone={(blob) => void sendAudio(blob)} onCancel={() => setRecording(false)} />
        </Suspense>
      ) : (
        <SpaceBetween size="xxs">
          <div
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                void send();
              }
            }}
          >
            <Textarea
              value={text}
              onChange={({ detail }) => setText(detail.value)}
              placeholder={t(isPrivate ? 'tickets.composer.privatePlaceholder' : 'tickets.composer.placeholder')}
              ariaLabel={t('tickets.composer.label')}
              rows={2}
              disabled={sending}
            />
          </div>
          <SpaceBetween direction="horizontal" size="xs" alignItems="center">
            <Button variant="primary" onClick={() => void send()} loading={sending} disabled={!text.trim()}>
              {t('tickets.composer.send')}
            </Button>
            <Button
              iconName="upload"
              ariaLabel={t('tickets.composer.attach')}
              onClick={() => fileInput.current?.click()}
            />
            <Button
              iconName="video-on"
              ariaLabel={t('tickets.composer.camera')}
              onClick={() => cameraInput.current?.click()}
            />
            <Button iconName="microphone" ariaLabel={t('tickets.composer.record')} onClick={() => setRecording(true)} />
            <ButtonDropdown
              variant="icon"
              ariaLabel={t('tickets.composer.more')}
              items={[
                { id: 'contact', text: t('tickets.composer.sendContact') },
                // The composer's "scheduled message" (core §2): the schedules dialog for this contact (D118).
                ...(planFlags.useSchedules ? [{ id: 'schedule', text: t('scheduledMessages.schedule') }] : []),
              ]}
              onItemClick={({ detail }) => {
                if (detail.id === 'contact') actions.openDialog({ kind: 'sendContact', ticket });
                if (detail.id === 'schedule') setScheduling(true);
              }}
            />
            <ButtonDropdown
              items={BUTTON_KINDS.map((kind) => ({ id: kind.id, text: t(kind.label) }))}
              onItemClick={({ detail }) => setButtonKind(detail.id as ButtonMessageKind)}
            >
              {t('tickets.buttons.menu')}
            </ButtonDropdown>
            <Toggle checked={isPrivate} onChange={({ detail }) => setIsPrivate(detail.checked)}>
              {t('tickets.composer.private')}
            </Toggle>
            {signatureAllowed && (
              <Toggle checked={sign} onChange={({ detail }) => toggleSign(detail.checked)}>
                {t('tickets.composer.signature')}
              </Toggle>
            )}
          </SpaceBetween>
        </SpaceBetween>
      )}
      <input ref={fileInput} type="file" multiple hidden data-testid="file-input" onChange={pickFiles} />
      <input
        ref={cameraInput}
        type="file"
        accept="image/*"
        capture="environment"
        hidden
        data-testid="camera-input"
        onChange={pickFiles}
      />
      {scheduling && (
        <Suspense fallback={null}>
          <ScheduleDialog
            record={undefined}
            contact={{ id: ticket.contact.id, name: ticket.contact.name }}
            onDismiss={() => setScheduling(false)}
            onSaved={() => setScheduling(false)}
          />
        </Suspense>
      )}
      {buttonKind && (
        <Suspense fallback={null}>
          <ButtonMessageDialog
            kind={buttonKind}
            ticketId={ticket.id}
            onClose={() => setButtonKind(null)}
            onSent={onSent}
          />
        </Suspense>
      )}
      {files.length > 0 && (
        <Modal
          visible
          header={t('tickets.composer.mediaPreview')}
          onDismiss={() => setFiles([])}
          footer={
            <Box float="right">
              <SpaceBetween direction="horizontal" size="xs">
                <Button variant="link" onClick={() => setFiles([])} disabled={sending}>
                  {t('tickets.dialogs.cancel')}
                </Button>
                <Button variant="primary" onClick={() => void sendFiles()} loading={sending}>
                  {t('tickets.composer.send')}
                </Button>
              </SpaceBetween>
            </Box>
          }
        >
          <SpaceBetween size="s">
            {files.map((entry, i) => (
              // The field's label names the caption's input (a FormField label wins over an aria-label).
              <FormField
                key={`${entry.file.name}-${i}`}
                label={t('tickets.composer.caption', { name: entry.file.name })}
              >
                {entry.file.type.startsWith('image/') && typeof URL.createObjectURL === 'function' && (
                  <img
                    src={URL.createObjectURL(entry.file)}
                    alt={entry.file.name}
                    style={{ maxWidth: 200, maxHeight: 200 }}
                  />
                )}
                <Textarea
                  rows={2}
                  value={entry.caption}
                  placeholder={t('tickets.composer.captionPlaceholder')}
                  onChange={({ detail }) =>
                    setFiles((all) => all.map((f, j) => (j === i ? { ...f, caption: detail.value } : f)))
                  }
                />
              </FormField>
            ))}
          </SpaceBetween>
        </Modal>
      )}
    </div>
  );
}
