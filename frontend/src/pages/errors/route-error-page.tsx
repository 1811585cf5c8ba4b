import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router-dom';

/**
 * The router's error boundary: a page that threw while rendering, or a page chunk that failed to load
 * (typically an old tab after a deploy removed its chunk) — reloading fetches the new build. Unknown paths
 * never get here: the `*` route shows the 404 page.
 */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  useEffect(() => {
    console.error('route failed', error);
  }, [error]);
  return (
    <Box padding={{ vertical: 'xxl', horizontal: 'l' }}>
      <Alert
        type="error"
        header={t('errors.route.title')}
        action={<Button onClick={() => window.location.reload()}>{t('errors.route.reload')}</Button>}
      >
        {t('errors.route.text')}
      </Alert>
    </Box>
  );
}
