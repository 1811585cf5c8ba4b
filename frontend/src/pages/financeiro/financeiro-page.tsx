import Button from '@cloudscape-design/components/button';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import type { TableProps } from '@cloudscape-design/components/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { companyChannel } from '@contracts/realtime';
import { listInvoices, type Invoice } from '@/api/billing';
import { ListPage } from '@/components/list-page/list-page';
import { useLiveList } from '@/components/list-page/use-live-list';
import { useCurrentUser } from '@/components/shell/shell-context';
import { formatDueDate } from '@/components/shell/subscription';
import { useChannel } from '@/realtime/use-socket';
import { AccessDeniedPage } from '@/pages/errors/access-denied-page';
import { brl } from '@/pages/settings/plans-manager';
import { isAdmin } from '@/pages/users/user-form';
import { CheckoutDialog } from './checkout-dialog';

/** The server's order: newest first. */
const newestFirst = (a: Invoice, b: Invoice) => b.id - a.id;

const STATUS_TYPE: Record<Invoice['displayStatus'], StatusIndicatorProps.Type> = {
  Pago: 'success',
  Vencido: 'error',
  'Em Aberto': 'pending',
};

/**
 * /financeiro (administration §2 "Invoices and subscription"): the company's invoices with details, users,
 * connections, queues, value, due date and status (Pago, Vencido, Em Aberto as the server derives them in
 * the company's zone), pages on scroll, and a pay button on unpaid ones that opens the checkout. The
 * payment event reads the list again. Reachable with an expired subscription (decisions D18, D26).
 */
function InvoicesTable({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const [paying, setPaying] = useState<Invoice | null>(null);
  const list = useLiveList<Invoice>({
    fetchPage: async (query, options) => {
      const page = await listInvoices(query, options);
      return { items: page.invoices, hasMore: page.hasMore, nextCursor: page.nextCursor };
    },
    compare: newestFirst,
    channel: companyChannel(companyId, 'payment'),
    change: () => null,
  });
  useChannel(companyChannel(companyId, 'payment'), () => list.refresh());

  const columns: TableProps.ColumnDefinition<Invoice>[] = [
    { id: 'detail', header: t('billing.invoices.columns.detail'), cell: (i) => i.detail, isRowHeader: true },
    { id: 'users', header: t('billing.invoices.columns.users'), cell: (i) => i.users },
    { id: 'connections', header: t('billing.invoices.columns.connections'), cell: (i) => i.connections },
    { id: 'queues', header: t('billing.invoices.columns.queues'), cell: (i) => i.queues },
    { id: 'value', header: t('billing.invoices.columns.value'), cell: (i) => brl(i.value) },
    { id: 'dueDate', header: t('billing.invoices.columns.dueDate'), cell: (i) => formatDueDate(i.dueDate) },
    {
      id: 'status',
      header: t('billing.invoices.columns.status'),
      cell: (i) => (
        <StatusIndicator type={STATUS_TYPE[i.displayStatus]}>
          {t(
            `billing.invoices.status.${i.status === 'paid' ? 'paid' : i.displayStatus === 'Vencido' ? 'overdue' : 'open'}`,
          )}
        </StatusIndicator>
      ),
    },
    {
      id: 'action',
      header: t('billing.invoices.columns.action'),
      cell: (i) =>
        i.status === 'paid' ? null : (
          <Button
            variant="primary"
            ariaLabel={t('billing.invoices.payInvoice', { id: i.id })}
            onClick={() => setPaying(i)}
          >
            {t('billing.invoices.pay')}
          </Button>
        ),
    },
  ];

  return (
    <>
      <ListPage
        list={list}
        section="billing.invoices"
        columns={columns}
        itemName={(i) => i.detail}
        endTestId="invoices-end"
      />
      {paying && <CheckoutDialog invoice={paying} onDismiss={() => setPaying(null)} />}
    </>
  );
}

/** /financeiro: admins (core §6 "financial" is admin only); a plain user gets the no-permission view. */
export function FinanceiroPage() {
  const user = useCurrentUser();
  return isAdmin(user) ? <InvoicesTable companyId={user.companyId} /> : <AccessDeniedPage />;
}
