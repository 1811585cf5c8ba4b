import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import { useTranslation } from 'react-i18next';
import { PRODUCT_NAME } from '@/product';

/**
 * A private area a later issue builds (App.tsx lists them in COMING_SOON_ROUTES): the menu already links
 * to it, so it says plainly that it arrives in a later version, under the area's menu title.
 */
export function ComingSoonPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <ContentLayout header={<Header variant="h1">{t(titleKey)}</Header>}>
      <Container>
        <Box variant="p">{t('comingSoon.text', { product: PRODUCT_NAME })}</Box>
        <Box variant="p" color="text-body-secondary">
          {t('comingSoon.hint')}
        </Box>
      </Container>
    </ContentLayout>
  );
}
