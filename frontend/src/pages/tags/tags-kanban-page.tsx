import Button from '@cloudscape-design/components/button';
import type { TableProps } from '@cloudscape-design/components/table';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { deleteTag, type Tag } from '@/api/tags';
import { ListPage } from '@/components/list-page/list-page';
import { TagChip } from './tag-chip';
import { TagDialog } from './tag-dialog';
import { useTagList } from './tags-page';

/**
 * /TagsKanban (administration §2: "searchable table of name chip, ticket count, edit and delete actions, an
 * add button and 'Voltar para o Kanban'"; decisions D100–D102): the kanban lanes, their dialog with the lane
 * time, next and rollback lanes and greeting.
 */
export function TagsKanbanPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useTagList(true);

  const columns: TableProps.ColumnDefinition<Tag>[] = [
    {
      id: 'name',
      header: t('tagsKanban.columns.name'),
      cell: (tag) => <TagChip name={tag.name} color={tag.color} />,
      isRowHeader: true,
    },
    { id: 'tickets', header: t('tagsKanban.columns.tickets'), cell: (tag) => tag.ticketCount },
  ];

  return (
    <ListPage
      list={list}
      section="tagsKanban"
      columns={columns}
      itemName={(tag) => tag.name}
      headerActions={<Button onClick={() => void navigate('/Kanban')}>{t('tagsKanban.back')}</Button>}
      form={({ item, onDismiss, onSaved }) => (
        <TagDialog record={item} kanban onDismiss={onDismiss} onSaved={onSaved} />
      )}
      remove={(tag) => deleteTag(tag.id)}
      endTestId="tags-kanban-list-end"
    />
  );
}
