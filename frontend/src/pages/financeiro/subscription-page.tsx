import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listInvoices, type Invoice } from '@/api/billing';
import { useCurrentUser } from '@/components/shell/shell-context';
import { daysUntilDue } from '@/components/shell/subscription';
import { useRequest } from '@/hooks/use-request';
import { AccessDeniedPage } from '@/pages/errors/access-denied-page';
import { isAdmin } from '@/pages/users/user-form';
import { CheckoutDialog } from './checkout-dialog';

/** The invoice 'Assine Agora!' pays: the oldest unpaid one of the first page (newest first). */
const invoiceToPay = (invoices: Invoice[]): Invoice | undefined => invoices.filter((i) => i.status !== 'paid').at(-1);

/**
 * /subscription, 'Assinatura' (core §2, administration §2): the read-only license period ('Sua licença vence
 * em hoje!' / 'Sua licença vence em {n} dias!'), the read-only billing e-mail, and 'Assine Agora!' opening
 * the checkout for the invoice to pay.
 */
function Subscription() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const [open, setOpen] = useState(false);
  const invoices = useRequest((signal) => listInvoices({}, { signal }), []);
  const days = Math.max(0, daysUntilDue(user.company.dueDate));
  const toPay = invoices.status === 'ready' ? invoiceToPay(invoices.data.invoices) : undefined;
  return (
    <ContentLayout header={<Header variant="h1">{t('billing.subscription.title')}</Header>}>
      <Container>
        <SpaceBetween size="l">
          <FormField label={t('billing.subscription.period')}>
            <Input
              readOnly
              ariaLabel={t('billing.subscription.period')}
              value={days === 0 ? t('billing.subscription.dueToday') : t('billing.subscription.dueIn', { count: days })}
            />
          </FormField>
          <FormField label={t('billing.subscription.email')}>
            <Input readOnly ariaLabel={t('billing.subscription.email')} value={user.email} />
          </FormField>
          <SpaceBetween size="xs">
            <Button variant="primary" disabled={!toPay} onClick={() => setOpen(true)}>
              {t('billing.subscription.subscribe')}
            </Button>
            {invoices.status === 'ready' && !toPay && (
              <Box color="text-body-secondary">{t('billing.subscription.nothingToPay')}</Box>
            )}
          </SpaceBetween>
        </SpaceBetween>
      </Container>
      {open && toPay && <CheckoutDialog invoice={toPay} onDismiss={() => setOpen(false)} />}
    </ContentLayout>
  );
}

export function SubscriptionPage() {
  const user = useCurrentUser();
  return isAdmin(user) ? <Subscription /> : <AccessDeniedPage />;
}
