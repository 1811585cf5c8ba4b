import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Form from '@cloudscape-design/components/form';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '@/components/language-select';
import { useOnFollow } from '@/hooks/use-on-follow';
import { useAppLogo, useAppName } from '@/branding';
import { useTheme } from '@/theme';

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
  const appName = useAppName();
  const logo = useAppLogo(useTheme());
  const { t } = useTranslation();
  return (
    <div style={{ maxWidth: 480, margin: '0 auto' }}>
      <SpaceBetween size="l">
        <Box textAlign="center">
          {logo && <img src={logo} alt={appName} style={{ maxHeight: 96, maxWidth: '100%' }} />}
          <Box variant="h1" tagOverride="p" fontSize="display-l">
            {appName}
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

/** The links under a public page's card (to the other public pages), router-aware. */
export function AuthLinks({ links }: { links: { href: string; text: string }[] }) {
  const onFollow = useOnFollow();
  return (
    <SpaceBetween size="xs">
      {links.map((link) => (
        <Link key={link.href} href={link.href} onFollow={onFollow}>
          {link.text}
        </Link>
      ))}
    </SpaceBetween>
  );
}

/**
 * A public page's form: browser validation off (ours shows the spec's texts), Enter submits, one primary
 * button that spins while the call runs.
 */
export function AuthForm({
  submitLabel,
  submitting,
  onSubmit,
  children,
}: {
  submitLabel: string;
  submitting: boolean;
  onSubmit: () => unknown;
  children: ReactNode;
}) {
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      <Form
        actions={
          <Button variant="primary" formAction="submit" loading={submitting}>
            {submitLabel}
          </Button>
        }
      >
        {children}
      </Form>
    </form>
  );
}
