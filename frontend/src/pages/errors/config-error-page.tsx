import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useTranslation } from 'react-i18next';

/** Rendered by main.tsx instead of the app when /config.json cannot be loaded: nothing works without it. */
export function ConfigErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const detail = error instanceof Error ? error.message : String(error);
  return (
    <Box padding={{ vertical: 'xxxl', horizontal: 'l' }}>
      <Alert
        type="error"
        header={t('bootstrap.configErrorTitle')}
        action={<Button onClick={() => window.location.reload()}>{t('bootstrap.reload')}</Button>}
      >
        <SpaceBetween size="s">
          <Box variant="p">{t('bootstrap.configErrorText')}</Box>
          <ExpandableSection headerText={t('bootstrap.details')}>
            <Box variant="code">{detail}</Box>
          </ExpandableSection>
        </SpaceBetween>
      </Alert>
    </Box>
  );
}
