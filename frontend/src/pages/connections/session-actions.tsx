import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { disconnectSession, renewQrCode, startSession, type Connection, type SessionAnswer } from '@/api/connections';
import { ConfirmModal } from '@/components/confirm-modal';
import { useNotifications } from '@/components/notifications';

type Action = 'start' | 'renew' | 'disconnect';

const CALLS: Record<Action, (id: number) => Promise<SessionAnswer>> = {
  start: startSession,
  renew: renewQrCode,
  disconnect: disconnectSession,
};

/**
 * The session column (core spec §4 Connection actions): qrcode offers the QR code; DISCONNECTED offers try
 * again (POST /whatsappsession/{id}) and a new QR (PUT); CONNECTED, PAIRING and TIMEOUT offer disconnect
 * (DELETE, after a confirmation); OPENING shows a disabled 'connecting' button. Facebook and Instagram
 * connections have no session to act on.
 */
export function SessionActions({
  connection,
  onShowQr,
  onAnswer,
}: {
  connection: Connection;
  onShowQr: () => void;
  /** The connection as an action's answer shows it (waiting status), applied to the list at once. */
  onAnswer: (connection: Connection, action: Action) => void;
}) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const [running, setRunning] = useState<Action | null>(null);
  const [confirming, setConfirming] = useState(false);
  const name = connection.name;

  const run = async (action: Action) => {
    setRunning(action);
    try {
      const answer = await CALLS[action](connection.id);
      onAnswer(answer.whatsapp, action);
    } catch (err) {
      notify.error(err);
    } finally {
      setRunning(null);
      setConfirming(false);
    }
  };

  if (connection.channel !== 'whatsapp') {
    return (
      <Box variant="span" color="text-status-inactive">
        {t('connections.session.none')}
      </Box>
    );
  }

  const button = (action: Action, text: string, variant: 'normal' | 'primary' = 'normal') => (
    <Button
      variant={variant}
      wrapText={false}
      loading={running === action}
      disabled={running !== null && running !== action}
      ariaLabel={`${text} – ${name}`}
      onClick={() => (action === 'disconnect' ? setConfirming(true) : void run(action))}
    >
      {text}
    </Button>
  );

  let actions;
  switch (connection.status) {
    case 'qrcode':
      actions = (
        <Button
          variant="primary"
          wrapText={false}
          ariaLabel={`${t('connections.session.qrcode')} – ${name}`}
          onClick={onShowQr}
        >
          {t('connections.session.qrcode')}
        </Button>
      );
      break;
    case 'DISCONNECTED':
      actions = (
        <SpaceBetween direction="horizontal" size="xs">
          {button('start', t('connections.session.tryAgain'))}
          {button('renew', t('connections.session.newQr'), 'primary')}
        </SpaceBetween>
      );
      break;
    case 'CONNECTED':
    case 'PAIRING':
    case 'TIMEOUT':
      actions = button('disconnect', t('connections.session.disconnect'));
      break;
    default: // OPENING (and 'connecting')
      actions = (
        <Button disabled loading wrapText={false} ariaLabel={`${t('connections.session.connecting')} – ${name}`}>
          {t('connections.session.connecting')}
        </Button>
      );
  }

  return (
    <>
      {actions}
      {confirming && (
        <ConfirmModal
          header={t('connections.disconnect.title', { name })}
          cancelText={t('connections.disconnect.cancel')}
          confirmText={t('connections.disconnect.confirm')}
          running={running !== null}
          onConfirm={() => void run('disconnect')}
          onDismiss={() => setConfirming(false)}
        >
          {t('connections.disconnect.text')}
        </ConfirmModal>
      )}
    </>
  );
}
