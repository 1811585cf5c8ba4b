import type { TableProps } from '@cloudscape-design/components/table';
import { useTranslation } from 'react-i18next';
import { companyChannel } from '@contracts/realtime';
import { deletePrompt, listPrompts, type PromptView } from '@/api/integrations';
import { ListPage } from '@/components/list-page/list-page';
import { channelChange, useLiveList } from '@/components/list-page/use-live-list';
import { useCurrentUser } from '@/components/shell/shell-context';
import { AccessDeniedPage } from '@/pages/errors/access-denied-page';
import { isAdmin } from '@/pages/users/user-form';
import { PromptDialog } from './prompt-dialog';

const byName = (a: PromptView, b: PromptView) =>
  a.name.localeCompare(b.name, 'pt', { sensitivity: 'base' }) || a.id - b.id;

/** `company-{id}-prompt`: `{action, prompt}`, and `{action: 'delete', promptId}`. */
const promptChange = channelChange<PromptView>({ item: 'prompt', deletedId: 'promptId' });

/** /prompts (administration spec §2 "AI prompts"): name, queue, max tokens and actions; add/edit dialog. */
function PromptsTable({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const list = useLiveList<PromptView>({
    fetchPage: async (query, options) => {
      const page = await listPrompts(query, options);
      return { items: page.prompts, hasMore: page.hasMore, nextCursor: page.nextCursor };
    },
    compare: byName,
    channel: companyChannel(companyId, 'prompt'),
    change: promptChange,
  });
  const columns: TableProps.ColumnDefinition<PromptView>[] = [
    { id: 'name', header: t('prompts.columns.name'), cell: (r) => r.name, isRowHeader: true },
    { id: 'queue', header: t('prompts.columns.queue'), cell: (r) => r.queue?.name ?? '—' },
    { id: 'maxTokens', header: t('prompts.columns.maxTokens'), cell: (r) => r.maxTokens, width: 160 },
  ];
  return (
    <ListPage
      list={list}
      section="prompts"
      columns={columns}
      itemName={(r) => r.name}
      form={({ item, onDismiss, onSaved }) => (
        <PromptDialog record={item} onDismiss={onDismiss} onSaved={(saved) => onSaved(saved)} />
      )}
      remove={(r) => deletePrompt(r.id)}
      endTestId="prompts-list-end"
    />
  );
}

/** /prompts: admins with the plan's useOpenAi; a plain user gets the no-permission view (§6). */
export function PromptsPage() {
  const user = useCurrentUser();
  return isAdmin(user) ? <PromptsTable companyId={user.companyId} /> : <AccessDeniedPage />;
}
