import Button from '@cloudscape-design/components/button';
import type { TableProps } from '@cloudscape-design/components/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteTag, listTagPage, type Tag } from '@/api/tags';
import { ListPage } from '@/components/list-page/list-page';
import { channelChange, useLiveList, type LiveChange } from '@/components/list-page/use-live-list';
import { useCurrentUser } from '@/components/shell/shell-context';
import type { SocketEvent } from '@/realtime/socket';
import { companyChannel } from '@contracts/realtime';
import { TagChip } from './tag-chip';
import { TagContactsModal } from './tag-contacts-modal';
import { TagDialog } from './tag-dialog';

/** The server's order: by the name's search form (accents and case ignored), then id. */
export const byName = (a: Tag, b: Tag): number =>
  a.name.localeCompare(b.name, 'pt', { sensitivity: 'base' }) || a.id - b.id;

const tagChange = channelChange<Tag>({ item: 'tag', deletedId: 'tagId' });

/** The lanes' list keeps only kanban tags: a tag turned plain leaves it. */
const laneChange = (event: SocketEvent): LiveChange<Tag> | null => {
  const change = tagChange(event);
  if (change && change.kind !== 'delete' && change.item.kanban !== 1) return { kind: 'delete', id: change.item.id };
  return change;
};

/** The tags list of /tags (plain) and of /TagsKanban (lanes), live from `company{id}-tag`. */
export function useTagList(kanban: boolean) {
  const user = useCurrentUser();
  return useLiveList<Tag>({
    fetchPage: async (query, options) => {
      const page = await listTagPage({ ...query, ...(kanban ? { kanban: 1 as const } : {}) }, options);
      return { items: page.tags, hasMore: page.hasMore, nextCursor: page.nextCursor };
    },
    compare: byName,
    channel: companyChannel(user.companyId, 'tag'),
    change: kanban ? laneChange : tagChange,
  });
}

/**
 * /tags (administration §2 "Tags and kanban"; decisions D100): searchable, infinite scroll, columns id,
 * name chip in the tag colour, contact count with a view-contacts button (disabled at 0), edit, delete.
 */
export function TagsPage() {
  const { t } = useTranslation();
  const list = useTagList(false);
  const [contactsOf, setContactsOf] = useState<Tag | null>(null);

  const columns: TableProps.ColumnDefinition<Tag>[] = [
    { id: 'id', header: t('tags.columns.id'), cell: (tag) => tag.id, width: 80 },
    {
      id: 'name',
      header: t('tags.columns.name'),
      cell: (tag) => <TagChip name={tag.name} color={tag.color} />,
      isRowHeader: true,
    },
    {
      id: 'contacts',
      header: t('tags.columns.contacts'),
      cell: (tag) => (
        <Button
          variant="inline-link"
          ariaLabel={t('tags.viewContacts', { name: tag.name, count: tag.contactCount })}
          disabled={tag.contactCount === 0}
          onClick={() => setContactsOf(tag)}
        >
          {String(tag.contactCount)}
        </Button>
      ),
    },
  ];

  return (
    <>
      <ListPage
        list={list}
        section="tags"
        columns={columns}
        itemName={(tag) => tag.name}
        form={({ item, onDismiss, onSaved }) => (
          <TagDialog record={item} kanban={false} onDismiss={onDismiss} onSaved={onSaved} />
        )}
        remove={(tag) => deleteTag(tag.id)}
        endTestId="tags-list-end"
      />
      {contactsOf && <TagContactsModal tag={contactsOf} onDismiss={() => setContactsOf(null)} />}
    </>
  );
}
