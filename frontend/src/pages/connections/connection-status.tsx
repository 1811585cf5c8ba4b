import Box from '@cloudscape-design/components/box';
import Icon from '@cloudscape-design/components/icon';
import Popover from '@cloudscape-design/components/popover';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import { useTranslation } from 'react-i18next';
import type { ConnectionChannel } from '@/api/connections';

/** How each status of core spec §4 shows; 'connecting' (seen in the field) shows like OPENING. */
const STATUS_LOOK: Record<string, { type: StatusIndicatorProps.Type; key: string }> = {
  CONNECTED: { type: 'success', key: 'connected' },
  qrcode: { type: 'pending', key: 'qrcode' },
  OPENING: { type: 'loading', key: 'opening' },
  connecting: { type: 'loading', key: 'opening' },
  PAIRING: { type: 'in-progress', key: 'pairing' },
  TIMEOUT: { type: 'warning', key: 'timeout' },
  DISCONNECTED: { type: 'error', key: 'disconnected' },
};

/** The status badge, with the reference product's hint of what to do in a popover. */
export function ConnectionStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const look = STATUS_LOOK[status];
  if (!look)
    return (
      <span style={{ whiteSpace: 'nowrap' }}>
        <StatusIndicator type="info" wrapText={false}>
          {status}
        </StatusIndicator>
      </span>
    );
  return (
    <Popover
      triggerType="custom"
      dismissButton={false}
      size="medium"
      header={t(`connections.status.${look.key}`)}
      content={t(`connections.statusHint.${look.key}`)}
      renderWithPortal
    >
      <button
        type="button"
        // One line: a narrow column grows to fit the status rather than breaking it mid-word ("Conect/ado").
        style={{ all: 'unset', cursor: 'pointer', whiteSpace: 'nowrap' }}
        aria-label={t('connections.statusAria', { status: t(`connections.status.${look.key}`) })}
      >
        <StatusIndicator type={look.type} wrapText={false}>
          {t(`connections.status.${look.key}`)}
        </StatusIndicator>
      </button>
    </Popover>
  );
}

const WHATSAPP_GLYPH =
  'M8 1.5a6.5 6.5 0 0 0-5.6 9.8L1.5 14.5l3.3-.9A6.5 6.5 0 1 0 8 1.5Zm3.2 9.1c-.1.4-.8.8-1.2.8-.3 0-.7.1-2.2-.5-1.9-.8-3-2.7-3.1-2.8-.1-.1-.7-1-.7-1.9s.5-1.3.6-1.5c.2-.2.4-.2.5-.2h.4c.1 0 .3 0 .4.3l.6 1.4c0 .1.1.2 0 .4l-.2.3-.3.3c-.1.1-.2.2-.1.4.1.2.5.9 1.1 1.4.8.7 1.4.9 1.6 1 .2.1.3.1.4-.1l.6-.7c.1-.2.3-.1.4-.1l1.3.6c.2.1.3.1.3.2.1.1.1.5-.1.9Z';

/** The Cloud API number (D76) wears WhatsApp's glyph in WhatsApp Business's darker green. */
const GLYPHS: Record<ConnectionChannel, { color: string; path: string }> = {
  whatsapp: { color: '#25D366', path: WHATSAPP_GLYPH },
  whatsappapi: { color: '#128C7E', path: WHATSAPP_GLYPH },
  facebook: {
    color: '#1877F2',
    path: 'M8 1a7 7 0 0 0-1.1 13.9V10H5.1V8h1.8V6.5c0-1.8 1-2.7 2.6-2.7.8 0 1.6.1 1.6.1v1.7h-.9c-.9 0-1.1.5-1.1 1.1V8h2l-.3 2H9.1v4.9A7 7 0 0 0 8 1Z',
  },
  instagram: {
    color: '#E4405F',
    path: 'M5 1.5h6A3.5 3.5 0 0 1 14.5 5v6a3.5 3.5 0 0 1-3.5 3.5H5A3.5 3.5 0 0 1 1.5 11V5A3.5 3.5 0 0 1 5 1.5Zm0 1.3A2.2 2.2 0 0 0 2.8 5v6A2.2 2.2 0 0 0 5 13.2h6a2.2 2.2 0 0 0 2.2-2.2V5A2.2 2.2 0 0 0 11 2.8H5Zm3 2.4a2.8 2.8 0 1 1 0 5.6 2.8 2.8 0 0 1 0-5.6Zm0 1.3a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3Zm3.2-2a.7.7 0 1 1 0 1.4.7.7 0 0 1 0-1.4Z',
  },
};

/** The channel's brand glyph. */
export function ChannelIcon({ channel }: { channel: ConnectionChannel }) {
  const glyph = GLYPHS[channel] ?? GLYPHS.whatsapp;
  return (
    <Icon
      svg={
        <svg viewBox="0 0 16 16" focusable="false" aria-hidden="true">
          <path d={glyph.path} fill={glyph.color} stroke="none" fillRule="evenodd" />
        </svg>
      }
    />
  );
}

/** The channel's icon and name, as the list's channel column shows it. */
export function ChannelLabel({ channel }: { channel: ConnectionChannel }) {
  const { t } = useTranslation();
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4, whiteSpace: 'nowrap' }}>
      <ChannelIcon channel={channel} />
      <Box variant="span">{t(`connections.channels.${channel}`)}</Box>
    </span>
  );
}
