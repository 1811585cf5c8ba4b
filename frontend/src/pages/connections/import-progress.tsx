import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { companyChannel } from '@contracts/realtime';
import { closeImportedTickets, type Connection, type ImportProgress as Progress } from '@/api/connections';
import { ConfirmModal } from '@/components/confirm-modal';
import { useNotifications } from '@/components/notifications';
import { useChannel } from '@/realtime/use-socket';

/** The progress button stays disabled this long after the import began (core spec §4). */
export const IMPORT_BUTTON_DELAY_MS = 35_000;

const isProgress = (value: unknown): value is Progress =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Progress).whatsappId === 'number' &&
  typeof (value as Progress).this === 'number' &&
  typeof (value as Progress).all === 'number';

/**
 * The import of old messages on a connection's row (core spec §4; decisions D78, D79): while the phone's
 * history is being prepared and imported, a button with the live progress (`importMessages-{companyId}`
 * updates), disabled for the first 35 seconds, that opens the details; once done, the button that closes
 * the imported tickets (`POST /closedimported/{id}`) after a confirmation. Nothing for a connection without
 * an import.
 */
export function ImportProgress({
  connection,
  onRefresh,
}: {
  connection: Connection;
  /** The import ended (the `refresh` event) or its tickets were closed: read the connections again. */
  onRefresh: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const [progress, setProgress] = useState<Progress | null>(null);
  const [showing, setShowing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [closing, setClosing] = useState(false);
  const status = connection.statusImportMessages;
  const startedAt = progress?.startedAt ?? connection.importStartedAt ?? null;
  const [now, setNow] = useState(() => Date.now());

  useChannel(companyChannel(connection.companyId, 'importMessages'), (event) => {
    if (event.action === 'update' && isProgress(event.status) && event.status.whatsappId === connection.id) {
      setProgress(event.status);
    } else if (event.action === 'refresh' && event.whatsappId === connection.id) {
      setProgress(null);
      setShowing(false);
      onRefresh();
    }
  });

  // Enable the progress button once 35 seconds have passed since the import began.
  const enablesAt = startedAt ? Date.parse(startedAt) + IMPORT_BUTTON_DELAY_MS : 0;
  useEffect(() => {
    if (!enablesAt || now >= enablesAt) return undefined;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, enablesAt - now) + 50);
    return () => clearTimeout(timer);
  }, [enablesAt, now]);

  if (status === 'renderButtonCloseTickets') {
    const close = async () => {
      setClosing(true);
      try {
        const answer = await closeImportedTickets(connection.id);
        notify.success(
          answer.hasMore
            ? t('connections.import.closedMore', { count: answer.closed })
            : t('connections.import.closed', { count: answer.closed }),
        );
        onRefresh();
      } catch (err) {
        notify.error(err);
      } finally {
        setClosing(false);
        setConfirming(false);
      }
    };
    return (
      <>
        <Button variant="inline-link" onClick={() => setConfirming(true)}>
          {t('connections.import.closeTickets')}
        </Button>
        {confirming && (
          <ConfirmModal
            header={t('connections.import.closeTitle', { name: connection.name })}
            cancelText={t('connections.import.cancel')}
            confirmText={t('connections.import.closeConfirm')}
            running={closing}
            onConfirm={() => void close()}
            onDismiss={() => setConfirming(false)}
          >
            {t('connections.import.closeText')}
          </ConfirmModal>
        )}
      </>
    );
  }
  if (status !== 'preparing' && status !== 'running') return null;

  const running = progress ? progress.state === 'running' : status === 'running';
  const label =
    running && progress && progress.all > 0
      ? t('connections.import.running', { done: progress.this, all: progress.all })
      : running
        ? t('connections.import.runningNoCount')
        : t('connections.import.preparing');
  const waiting = enablesAt > now;
  const percent = progress && progress.all > 0 ? Math.round((progress.this / progress.all) * 100) : 0;
  return (
    <>
      <Button
        variant="normal"
        iconName="download"
        disabled={waiting}
        disabledReason={waiting ? t('connections.import.wait') : undefined}
        onClick={() => setShowing(true)}
      >
        {label}
      </Button>
      {showing && (
        <Modal
          visible
          header={t('connections.import.title', { name: connection.name })}
          onDismiss={() => setShowing(false)}
          footer={
            <Box float="right">
              <Button variant="primary" onClick={() => setShowing(false)}>
                {t('connections.import.ok')}
              </Button>
            </Box>
          }
        >
          <SpaceBetween size="m">
            <ProgressBar
              value={percent}
              label={label}
              description={
                startedAt ? t('connections.import.startedAt', { at: new Date(startedAt).toLocaleString() }) : undefined
              }
              additionalInfo={t('connections.import.info')}
            />
          </SpaceBetween>
        </Modal>
      )}
    </>
  );
}
