import Box from '@cloudscape-design/components/box';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useTranslation } from 'react-i18next';
import { useOnFollow } from '@/hooks/use-on-follow';

/** Any path no route matches. */
export function NotFoundPage() {
  const { t } = useTranslation();
  const onFollow = useOnFollow();
  return (
    <Box textAlign="center" padding={{ vertical: 'xxxl' }}>
      <SpaceBetween size="m">
        <Box variant="h1">{t('errors.notFound.title')}</Box>
        <Box variant="p" color="text-body-secondary">
          {t('errors.notFound.text')}
        </Box>
        <Link href="/" onFollow={onFollow}>
          {t('errors.notFound.home')}
        </Link>
      </SpaceBetween>
    </Box>
  );
}
