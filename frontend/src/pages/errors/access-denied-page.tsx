import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useTranslation } from 'react-i18next';
import { useOnFollow } from '@/hooks/use-on-follow';

/**
 * The 403 screen (core spec §2): 'Oops! Acesso Negado!' with a 'Voltar' button to /tickets. Pages render it
 * in place when the user may not see them (e.g. the dashboard with showDashboard disabled).
 */
export function AccessDeniedPage() {
  const { t } = useTranslation();
  const onFollow = useOnFollow();
  return (
    <Box textAlign="center" padding={{ vertical: 'xxxl' }}>
      <SpaceBetween size="m">
        <Box variant="h1">{t('errors.forbidden.title')}</Box>
        <Box variant="p" color="text-body-secondary">
          {t('errors.forbidden.text')}
        </Box>
        <Button variant="primary" href="/tickets" onFollow={onFollow}>
          {t('errors.forbidden.back')}
        </Button>
      </SpaceBetween>
    </Box>
  );
}
