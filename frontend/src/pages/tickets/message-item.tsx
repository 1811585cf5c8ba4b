import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ButtonDropdown, { type ButtonDropdownProps } from '@cloudscape-design/components/button-dropdown';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Message } from '@/api/messages';
import { CHAT_BUBBLE_CLASS, ChatColors, chatColor } from '@/components/chat-colors';
import { WhatsappMarkup, renderWhatsappMarkup } from '@/components/whatsapp-markup';
import { formatClock } from './format';

/** Core spec §4: own messages may be edited within 15 minutes of sending. */
export const EDIT_WINDOW_MS = 15 * 60 * 1000;
/** Core spec §4, §9: playback speeds, remembered in the browser. */
export const AUDIO_SPEEDS = [0.5, 1, 1.5, 2] as const;
export const AUDIO_SPEED_KEY = 'audioPlaybackRate';

export const storedAudioSpeed = (): number => {
  const value = Number(localStorage.getItem(AUDIO_SPEED_KEY));
  return (AUDIO_SPEEDS as readonly number[]).includes(value) ? value : 1;
};

export const nextAudioSpeed = (current: number): number => {
  const i = (AUDIO_SPEEDS as readonly number[]).indexOf(current);
  return AUDIO_SPEEDS[(i + 1) % AUDIO_SPEEDS.length] ?? 1;
};

/** Core spec §4 ack icons: 0 clock, 1 sent, 2 delivered, 3–4 read (played for audio), 5 played. */
const ACK_MARK = ['🕓', '✓', '✓✓', '✓✓', '✓✓', '✓✓'] as const;

export function AckIcon({ ack, audio }: { ack: number; audio: boolean }) {
  const { t } = useTranslation();
  const level = Math.max(0, Math.min(5, Math.trunc(ack)));
  const key = level >= 3 && audio ? 'played' : level === 4 ? 'read' : String(level);
  const label = t(`tickets.ack.${key}`);
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      style={{ color: level >= 3 ? chatColor.read : undefined, marginLeft: 4 }}
    >
      {ACK_MARK[level]}
    </span>
  );
}

/** An audio player with the remembered speed button (0.5, 1, 1.5, 2). */
export function AudioPlayer({ src }: { src: string }) {
  const { t } = useTranslation();
  const [speed, setSpeed] = useState(storedAudioSpeed);
  const audio = useRef<HTMLAudioElement | null>(null);
  const apply = (element: HTMLAudioElement | null) => {
    audio.current = element;
    if (element) element.playbackRate = speed;
  };
  const cycle = () => {
    const next = nextAudioSpeed(speed);
    localStorage.setItem(AUDIO_SPEED_KEY, String(next));
    if (audio.current) audio.current.playbackRate = next;
    setSpeed(next);
  };
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
      <audio ref={apply} controls src={src} preload="metadata" />
      <Button variant="inline-link" onClick={cycle} ariaLabel={t('tickets.message.speed', { speed })}>
        {`${speed}x`}
      </Button>
    </span>
  );
}

const vCardName = (vCard: string): string => /FN:(.*)/.exec(vCard)?.[1]?.trim() ?? '';
const vCardNumber = (vCard: string): string =>
  /waid=(\d+)/.exec(vCard)?.[1] ?? /TEL[^:]*:([+\d\s-]+)/.exec(vCard)?.[1]?.trim() ?? '';

function Media({ message }: { message: Message }) {
  const { t } = useTranslation();
  const url = message.mediaUrl;
  if (!url) return null;
  switch (message.mediaType) {
    case 'image':
      return (
        <a href={url} target="_blank" rel="noopener noreferrer">
          <img
            src={url}
            alt={message.filename ?? t('tickets.message.image')}
            style={{ maxWidth: 260, maxHeight: 260, borderRadius: 6 }}
          />
        </a>
      );
    case 'audio':
      return <AudioPlayer src={url} />;
    case 'video':
      return <video src={url} controls style={{ maxWidth: 300 }} />;
    default:
      return (
        <a href={url} target="_blank" rel="noopener noreferrer" download={message.filename}>
          {t('tickets.message.download', { name: message.filename ?? message.body ?? '' })}
        </a>
      );
  }
}

export type MessageAction = 'reply' | 'edit' | 'delete' | 'forward' | 'transcribe' | 'talkToSender';

/** The options a message offers (core spec §2 "Message options", §4 edit and delete rules). */
export const messageActions = (
  message: Message,
  { isGroup, now = Date.now() }: { isGroup: boolean; now?: number },
): MessageAction[] => {
  if (message.isDeleted) return [];
  const actions: MessageAction[] = ['reply', 'forward'];
  // An automatic reply (decisions D99) is the bot's words: nobody edits them as their own.
  if (
    message.fromMe &&
    !message.automatic &&
    !message.mediaUrl &&
    now - new Date(message.createdAt).getTime() <= EDIT_WINDOW_MS
  )
    actions.push('edit');
  if (message.fromMe) actions.push('delete');
  if (message.mediaType === 'audio' && message.mediaUrl) actions.push('transcribe');
  // The writer's number finds or creates their contact; a writer known only by LID cannot be reached.
  if (isGroup && !message.fromMe && message.participant?.number) actions.push('talkToSender');
  return actions;
};

/**
 * One chat bubble: the quoted message, forwarded / edited / deleted-by-contact markers, media, the body in
 * the spec's markdown, time, the ack icon of own messages, and the options menu.
 */
export function MessageItem({
  message,
  isGroup,
  transcript,
  onAction,
}: {
  message: Message;
  isGroup: boolean;
  transcript?: string;
  onAction: (action: MessageAction, message: Message) => void;
}) {
  const { t } = useTranslation();
  const actions = messageActions(message, { isGroup });
  const items: ButtonDropdownProps.Item[] = actions.map((a) => ({ id: a, text: t(`tickets.message.actions.${a}`) }));
  // The theme's chat colours (components/chat-colors.tsx): readable in light and dark mode.
  const background = message.isPrivate ? chatColor.note : message.fromMe ? chatColor.outgoing : chatColor.incoming;
  const showBody = message.body && !(message.mediaUrl && message.body === message.filename);
  return (
    <div
      data-testid="message"
      data-message-id={message.id}
      style={{ display: 'flex', justifyContent: message.fromMe ? 'flex-end' : 'flex-start', margin: '4px 0' }}
    >
      <ChatColors />
      <div
        className={CHAT_BUBBLE_CLASS}
        data-testid="bubble"
        style={{
          background,
          borderRadius: 8,
          padding: '6px 10px',
          maxWidth: '75%',
          boxShadow: '0 1px 1px rgba(0,0,0,0.15)',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
        }}
      >
        {message.isPrivate && (
          <Box fontSize="body-s" color="text-status-warning">
            {t('tickets.message.private')}
          </Box>
        )}
        {message.automatic && (
          <Box fontSize="body-s" color="text-body-secondary">
            {t('tickets.message.automatic')}
          </Box>
        )}
        {message.isForwarded && (
          <Box fontSize="body-s" color="text-body-secondary">
            {t('tickets.message.forwarded')}
          </Box>
        )}
        {message.quotedMsg && (
          <div
            data-testid="quoted"
            style={{
              borderLeft: `4px solid ${chatColor.quoteBar}`,
              background: chatColor.quoteBackground,
              padding: '2px 6px',
              marginBottom: 4,
            }}
          >
            <Box fontSize="body-s" fontWeight="bold">
              {message.quotedMsg.fromMe ? t('tickets.message.you') : (message.quotedMsg.contact?.name ?? '')}
            </Box>
            <Box fontSize="body-s">
              {message.quotedMsg.body
                ? renderWhatsappMarkup(message.quotedMsg.body)
                : t(`tickets.mediaTypes.${message.quotedMsg.mediaType}`, { defaultValue: message.quotedMsg.mediaType })}
            </Box>
          </div>
        )}
        {message.isDeleted ? (
          <Box color="text-body-secondary">
            <i>{t('tickets.message.deleted')}</i>
          </Box>
        ) : (
          <>
            <Media message={message} />
            {message.vCard && (
              <div data-testid="vcard">
                <Box fontWeight="bold">{vCardName(message.vCard)}</Box>
                <Box fontSize="body-s">{vCardNumber(message.vCard)}</Box>
              </div>
            )}
            {showBody && !message.vCard && (
              <div data-field="body">
                <WhatsappMarkup text={message.body} />
              </div>
            )}
            {transcript && (
              <Box fontSize="body-s" color="text-body-secondary">
                {t('tickets.message.transcript')}: {transcript}
              </Box>
            )}
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
          {message.isEdited && <span>{t('tickets.message.edited')}</span>}
          {message.sendError && <span style={{ color: chatColor.error }}>{t('tickets.message.sendError')}</span>}
          <span>{formatClock(message.createdAt)}</span>
          {message.fromMe && <AckIcon ack={message.ack} audio={message.mediaType === 'audio'} />}
          {items.length > 0 && (
            <ButtonDropdown
              variant="inline-icon"
              ariaLabel={t('tickets.message.options')}
              items={items}
              onItemClick={({ detail }) => onAction(detail.id as MessageAction, message)}
            />
          )}
        </div>
      </div>
    </div>
  );
}
