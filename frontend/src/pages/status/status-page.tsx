import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import { useTranslation } from 'react-i18next';
import { getVersion } from '@/api/system';
import { useAppServices } from '@/app-services';
import { LanguageSelect } from '@/components/language-select';
import { useErrorText } from '@/hooks/use-error-text';
import { useRequest } from '@/hooks/use-request';
import { PRODUCT_NAME } from '@/product';
import type { SocketState } from '@/realtime/socket';
import { useOnReconnect, useSocketState } from '@/realtime/use-socket';

const SOCKET_INDICATOR: Record<SocketState, StatusIndicatorProps.Type> = {
  idle: 'stopped',
  connecting: 'loading',
  open: 'success',
  reconnecting: 'warning',
};

/**
 * /status: what this deployment is and whether it can reach its server — product, version (GET /version),
 * stage, the API and WebSocket URLs from /config.json and the socket's live state.
 */
export function StatusPage() {
  const { t } = useTranslation();
  const textOf = useErrorText();
  const { config } = useAppServices();
  const socketState = useSocketState();
  const version = useRequest((signal) => getVersion({ signal }), []);
  // A reconnect may follow a deploy: read the version again rather than show a stale one.
  useOnReconnect(version.reload);

  const versionValue =
    version.status === 'ready' ? (
      version.data.version
    ) : version.status === 'loading' ? (
      <StatusIndicator type="loading">{t('status.versionLoading')}</StatusIndicator>
    ) : (
      <StatusIndicator type="error">{t('status.versionError')}</StatusIndicator>
    );

  return (
    <ContentLayout
      header={
        <Header variant="h1" description={t('status.description')} actions={<LanguageSelect />}>
          {t('status.title')}
        </Header>
      }
    >
      <SpaceBetween size="l">
        {version.status === 'error' && (
          <Alert
            type="error"
            header={t('status.versionError')}
            action={<Button onClick={version.reload}>{t('common.retry')}</Button>}
          >
            {textOf(version.error)}
          </Alert>
        )}
        <Container>
          <KeyValuePairs
            columns={3}
            items={[
              { label: t('status.product'), value: PRODUCT_NAME },
              { label: t('status.version'), value: versionValue },
              { label: t('status.stage'), value: config.stage },
              { label: t('status.apiUrl'), value: config.apiBase },
              { label: t('status.wsUrl'), value: config.wsUrl },
              {
                label: t('status.realtime'),
                value: (
                  <StatusIndicator type={SOCKET_INDICATOR[socketState]}>
                    {t(`status.socket.${socketState}`)}
                  </StatusIndicator>
                ),
              },
            ]}
          />
        </Container>
      </SpaceBetween>
    </ContentLayout>
  );
}
