import Box from '@cloudscape-design/components/box';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { TableProps } from '@cloudscape-design/components/table';
import { useTranslation } from 'react-i18next';
import { deleteCompany, listCompanies, type Company } from '@/api/companies';
import { ListPage } from '@/components/list-page/list-page';
import { useLiveList } from '@/components/list-page/use-live-list';
import { CompanyDialog } from './company-dialog';

/** The server's order without a search: by id. */
const byId = (a: Company, b: Company) => a.id - b.id;

const DAY_MS = 86_400_000;

/** Whole days from today (the viewer's calendar) to the due date; negative when past. */
export const daysLeft = (dueDate: string, now = new Date()): number => {
  const today = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate());
  const [y, m, d] = dueDate.slice(0, 10).split('-').map(Number);
  return Math.round((Date.UTC(y!, m! - 1, d!) - today) / DAY_MS);
};

/** The spec's row colour (core §9): yellow with 1–5 days left, red at 0 or overdue, none otherwise. */
export const dueTint = (dueDate: string, now = new Date()): 'warning' | 'error' | null => {
  const left = daysLeft(dueDate, now);
  if (left <= 0) return 'error';
  if (left <= 5) return 'warning';
  return null;
};

const dayOf = (iso: string | null): string => {
  if (!iso) return '—';
  const [y, m, d] = iso.slice(0, 10).split('-');
  return `${d}/${m}/${y}`;
};

const brl = (amount: number) => new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(amount);

const size = (bytes: number): string => {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
};

/**
 * /companies (administration §2 "Companies and plans"; decisions D155): the platform owner's companies —
 * id, active, name, e-mail, plan and its value, created, due date with recurrence (tinted yellow with 1–5
 * days left, red at 0 or overdue), last login, folder size, file total and last folder count; search by
 * name; the company dialog; delete after confirming. No event carries companies: the list is read again
 * when the socket comes back.
 */
export function CompaniesPage() {
  const { t } = useTranslation();
  const list = useLiveList({
    fetchPage: async (query, options) => {
      const page = await listCompanies(query, options);
      return { items: page.companies, hasMore: page.hasMore, nextCursor: page.nextCursor };
    },
    compare: byId,
    channel: 'companies',
    change: () => null,
  });

  const columns: TableProps.ColumnDefinition<Company>[] = [
    { id: 'id', header: t('companies.columns.id'), cell: (c) => c.id },
    {
      id: 'status',
      header: t('companies.columns.status'),
      cell: (c) => (c.status ? t('companies.yes') : t('companies.no')),
    },
    { id: 'name', header: t('companies.columns.name'), cell: (c) => c.name, isRowHeader: true },
    { id: 'email', header: t('companies.columns.email'), cell: (c) => c.email },
    { id: 'plan', header: t('companies.columns.plan'), cell: (c) => c.plan?.name ?? '—' },
    { id: 'amount', header: t('companies.columns.amount'), cell: (c) => (c.plan ? brl(c.plan.amount) : '—') },
    { id: 'createdAt', header: t('companies.columns.createdAt'), cell: (c) => dayOf(c.createdAt) },
    {
      id: 'dueDate',
      header: t('companies.columns.dueDate'),
      cell: (c) => {
        const text = `${dayOf(c.dueDate)} · ${t(`companies.recurrence.${c.recurrence}`)}`;
        const tint = c.id === 1 ? null : dueTint(c.dueDate);
        return tint ? (
          <span data-tint={tint}>
            <StatusIndicator type={tint}>{text}</StatusIndicator>
          </span>
        ) : (
          <Box variant="span">{text}</Box>
        );
      },
    },
    { id: 'lastLogin', header: t('companies.columns.lastLogin'), cell: (c) => dayOf(c.lastLogin) },
    { id: 'folderSize', header: t('companies.columns.folderSize'), cell: (c) => size(c.folderSize) },
    { id: 'numberFileFolder', header: t('companies.columns.numberFileFolder'), cell: (c) => c.numberFileFolder },
    { id: 'updatedAtFolder', header: t('companies.columns.updatedAtFolder'), cell: (c) => dayOf(c.updatedAtFolder) },
  ];

  return (
    <ListPage
      list={list}
      section="companies"
      columns={columns}
      itemName={(c) => c.name}
      form={({ item, onDismiss, onSaved }) => <CompanyDialog record={item} onDismiss={onDismiss} onSaved={onSaved} />}
      remove={(c) => deleteCompany(c.id)}
      removeDisabled={(c) => c.id === 1 && t('companies.platformCompany')}
      endTestId="companies-list-end"
    />
  );
}
