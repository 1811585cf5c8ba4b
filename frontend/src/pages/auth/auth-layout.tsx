import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '@/components/language-select';
import { PRODUCT_NAME } from '@/product';

/** The frame of the public pages: product name, language picker, and the page's form in one narrow card. */
export function AuthLayout({
  title,
  description,
  children,
  footer,
}: {
  title: string;
  description?: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div style={{ maxWidth: 480, margin: '0 auto' }}>
      <SpaceBetween size="l">
        <Box textAlign="center">
          <Box variant="h1" tagOverride="p" fontSize="display-l">
            {PRODUCT_NAME}
          </Box>
          <Box color="text-body-secondary">{t('auth.product')}</Box>
        </Box>
        <Container
          header={
            <Header variant="h1" description={description} actions={<LanguageSelect />}>
              {title}
            </Header>
          }
          footer={footer}
        >
          {children}
        </Container>
      </SpaceBetween>
    </div>
  );
}
