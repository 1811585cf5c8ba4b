import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import { toString as qrSvg } from 'qrcode';
import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isSimulatorQrCode, scanSimulatorQrCode, type Connection } from '@/api/connections';
import { useNotifications } from '@/components/notifications';
import { ConnectionStatusBadge } from './connection-status';

/** The QR's side in CSS pixels; the SVG scales without blur. */
const QR_SIZE = 256;

/** The QR code of `text` as an SVG data URL (qrcode's SVG renderer needs no canvas, so tests draw it too). */
export const qrImageUrl = async (text: string): Promise<string> =>
  `data:image/svg+xml;charset=utf-8,${encodeURIComponent(
    await qrSvg(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'L' }),
  )}`;

/** The image of `text`'s QR code; undefined while it is drawn. */
function useQrImage(text: string): string | undefined {
  const [image, setImage] = useState<{ text: string; url: string }>();
  useEffect(() => {
    if (!text) return undefined;
    let current = true;
    qrImageUrl(text).then(
      (url) => {
        if (current) setImage({ text, url });
      },
      (err: unknown) => console.error('QR code not drawn', err),
    );
    return () => {
      current = false;
    };
  }, [text]);
  return image?.text === text ? image.url : undefined;
}

/**
 * The QR code dialog (core spec §2 Connections, §4): the connection's `qrcode` as an image, redrawn as the
 * worker publishes new codes (the page passes the live row), with the steps to scan it. It closes by itself
 * once the connection is CONNECTED (or gone). A QR code of the local simulator driver also gets a
 * 'Simular leitura' button that asks the simulator to scan it.
 */
export function QrCodeDialog({ connection, onDismiss }: { connection: Connection | undefined; onDismiss: () => void }) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const image = useQrImage(connection?.qrcode ?? '');
  const status = connection?.status;
  const [scanning, setScanning] = useState(false);

  const simulateScan = async (id: number) => {
    setScanning(true);
    try {
      await scanSimulatorQrCode(id);
    } catch (err) {
      notify.error(err);
    } finally {
      setScanning(false);
    }
  };

  const close = useEffectEvent((connected: boolean) => {
    if (connected) notify.success(t('connections.qr.connected'));
    onDismiss();
  });
  useEffect(() => {
    if (status === undefined || status === 'CONNECTED') close(status === 'CONNECTED');
  }, [status]);

  if (!connection) return null;
  return (
    <Modal
      visible
      size="large"
      header={t('connections.qr.title', { name: connection.name })}
      onDismiss={onDismiss}
      closeAriaLabel={t('common.close')}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            {isSimulatorQrCode(connection.qrcode) && (
              // Local and test deployments run the simulator driver: its QR code is "read" by a button.
              <Button loading={scanning} onClick={() => void simulateScan(connection.id)}>
                {t('connections.qr.simulateScan')}
              </Button>
            )}
            <Button variant="primary" onClick={onDismiss}>
              {t('common.close')}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <ColumnLayout columns={2}>
        <SpaceBetween size="s">
          <Box variant="h3">{t('connections.qr.stepsTitle')}</Box>
          <ol style={{ margin: 0, paddingInlineStart: 20 }}>
            <li>{t('connections.qr.step1')}</li>
            <li>{t('connections.qr.step2')}</li>
            <li>{t('connections.qr.step3')}</li>
            <li>{t('connections.qr.step4')}</li>
          </ol>
          <ConnectionStatusBadge status={connection.status} />
        </SpaceBetween>
        <Box textAlign="center">
          {connection.qrcode && image ? (
            <img
              src={image}
              alt={t('connections.qr.imageAlt', { name: connection.name })}
              width={QR_SIZE}
              height={QR_SIZE}
              style={{ background: '#fff', imageRendering: 'pixelated' }}
            />
          ) : (
            <SpaceBetween size="xs" alignItems="center">
              <Spinner size="large" />
              <Box variant="span">{t('connections.qr.waiting')}</Box>
            </SpaceBetween>
          )}
        </Box>
      </ColumnLayout>
    </Modal>
  );
}
