import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import TextFilter from '@cloudscape-design/components/text-filter';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteModal } from '@/components/confirm-modal';
import { useErrorText } from '@/hooks/use-error-text';
import { useNearBottom } from '@/hooks/use-near-bottom';
import type { LiveList } from './use-live-list';

/** Why a row's action is not offered: a reason (shown on the disabled button), true for none; false offers it. */
export type Disabled = boolean | string | undefined;

/** What the create/edit dialog gets: the row to edit (none: create), how to close, and what to do after a save. */
export interface ListFormProps<T> {
  item: T | undefined;
  onDismiss: () => void;
  /** Closes the dialog; a create reads the list again from page 1, an edit puts the row in its place. */
  onSaved: (saved: T) => void;
}

export interface ListPageProps<T extends { id: number }> {
  list: LiveList<T>;
  /**
   * The area's translation section. Keys: `title`, `add`, `searchPlaceholder`, `searchLabel`, `loading`,
   * `loadingMore`, `loadError`, `empty`, `noMatch`; with row actions also `columns.actions`, `edit` and
   * `remove` (with `{{name}}`) and `delete.*` (components/confirm-modal ConfirmDeleteModal).
   */
  section: string;
  /** The area's columns; the actions column (edit, delete) is added after them. */
  columns: TableProps.ColumnDefinition<T>[];
  /** The row's name in the action labels and the delete question. */
  itemName: (item: T) => string;
  /** The create/edit dialog; without it there is no add button and no edit action. */
  form?: (props: ListFormProps<T>) => ReactNode;
  /** Deletes a row on the server, after the confirmation; without it there is no delete action. */
  remove?: (item: T) => Promise<unknown>;
  editDisabled?: (item: T) => Disabled;
  removeDisabled?: (item: T) => Disabled;
  /** The count of rows loaded beside the title, `(20+)` while more pages exist (default on). */
  counter?: boolean;
  /** More header buttons, before the add button. */
  headerActions?: ReactNode;
  /** `data-testid` of the element after the table that the infinite scroll watches. */
  endTestId?: string;
}

type Editing<T> = { item: T | undefined };

function RowActions({
  section,
  name,
  onEdit,
  onRemove,
  editDisabled,
  removeDisabled,
}: {
  section: string;
  name: string;
  onEdit: (() => void) | undefined;
  onRemove: (() => void) | undefined;
  editDisabled: Disabled;
  removeDisabled: Disabled;
}) {
  const { t } = useTranslation();
  const reason = (disabled: Disabled) => (typeof disabled === 'string' ? disabled : undefined);
  return (
    <SpaceBetween direction="horizontal" size="xxs">
      {onEdit && (
        <Button
          variant="icon"
          iconName="edit"
          ariaLabel={t(`${section}.edit`, { name })}
          disabled={Boolean(editDisabled)}
          disabledReason={reason(editDisabled)}
          onClick={onEdit}
        />
      )}
      {onRemove && (
        <Button
          variant="icon"
          iconName="remove"
          ariaLabel={t(`${section}.remove`, { name })}
          disabled={Boolean(removeDisabled)}
          disabledReason={reason(removeDisabled)}
          onClick={onRemove}
        />
      )}
    </SpaceBetween>
  );
}

/**
 * A list screen (core spec §9): a full-page table of `useLiveList`'s rows with the title (and the count),
 * the search field, the add button, edit and delete per row, loading, empty, no-match and a failed first
 * page with 'Tentar novamente'; further pages load when the end of the table comes within 100 px of the
 * bottom, with a loading or error-and-retry footer. It opens the area's `form` to add or edit and the
 * delete confirmation, and applies their outcome to the list.
 */
export function ListPage<T extends { id: number }>({
  list,
  section,
  columns,
  itemName,
  form,
  remove,
  editDisabled,
  removeDisabled,
  counter = true,
  headerActions,
  endTestId = 'list-end',
}: ListPageProps<T>) {
  const { t } = useTranslation();
  const textOf = useErrorText();
  const [editing, setEditing] = useState<Editing<T> | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const end = useNearBottom(list.status === 'ready' && list.hasMore, list.loadMore);
  const rows = list.items;

  const withActions: TableProps.ColumnDefinition<T>[] =
    form || remove
      ? [
          ...columns,
          {
            id: 'actions',
            header: t(`${section}.columns.actions`),
            cell: (item) => (
              <RowActions
                section={section}
                name={itemName(item)}
                onEdit={form ? () => setEditing({ item }) : undefined}
                onRemove={remove ? () => setDeleting(item) : undefined}
                editDisabled={editDisabled?.(item)}
                removeDisabled={removeDisabled?.(item)}
              />
            ),
          },
        ]
      : columns;

  const firstLoad = list.status === 'loading' && rows.length === 0;
  const failedFirst = list.status === 'error' && rows.length === 0;
  const footer =
    rows.length > 0 && list.status === 'loading' ? (
      <Box textAlign="center">
        <StatusIndicator type="loading">{t(`${section}.loadingMore`)}</StatusIndicator>
      </Box>
    ) : rows.length > 0 && list.status === 'error' ? (
      <Box textAlign="center">
        <SpaceBetween direction="horizontal" size="xs" alignItems="center">
          <StatusIndicator type="error">{textOf(list.error)}</StatusIndicator>
          <Button onClick={list.retry}>{t('common.retry')}</Button>
        </SpaceBetween>
      </Box>
    ) : undefined;

  return (
    <>
      <Table
        variant="full-page"
        stickyHeader
        items={rows}
        trackBy="id"
        columnDefinitions={withActions}
        loading={firstLoad}
        loadingText={t(`${section}.loading`)}
        header={
          <Header
            variant="awsui-h1-sticky"
            counter={counter && !firstLoad && !failedFirst ? `(${rows.length}${list.hasMore ? '+' : ''})` : undefined}
            actions={
              (headerActions || form) && (
                <SpaceBetween direction="horizontal" size="xs">
                  {headerActions}
                  {form && (
                    <Button variant="primary" iconName="add-plus" onClick={() => setEditing({ item: undefined })}>
                      {t(`${section}.add`)}
                    </Button>
                  )}
                </SpaceBetween>
              )
            }
          >
            {t(`${section}.title`)}
          </Header>
        }
        filter={
          <TextFilter
            filteringText={list.filterText}
            filteringPlaceholder={t(`${section}.searchPlaceholder`)}
            filteringAriaLabel={t(`${section}.searchLabel`)}
            onChange={({ detail }) => list.setFilterText(detail.filteringText)}
          />
        }
        empty={
          failedFirst ? (
            <Alert
              type="error"
              header={t(`${section}.loadError`)}
              action={<Button onClick={list.retry}>{t('common.retry')}</Button>}
            >
              {textOf(list.error)}
            </Alert>
          ) : (
            <Box textAlign="center" color="inherit">
              {list.search ? t(`${section}.noMatch`) : t(`${section}.empty`)}
            </Box>
          )
        }
        footer={footer}
      />
      {/* Infinite scroll (core spec §9): the next page loads when this comes within 100 px of the bottom. */}
      <div ref={end} data-testid={endTestId} />
      {editing &&
        form?.({
          item: editing.item,
          onDismiss: () => setEditing(null),
          onSaved: (saved) => {
            setEditing(null);
            if (editing.item === undefined) list.reset();
            else list.upsert(saved);
          },
        })}
      {deleting && remove && (
        <ConfirmDeleteModal
          section={`${section}.delete`}
          name={itemName(deleting)}
          remove={() => remove(deleting)}
          onDismiss={() => setDeleting(null)}
          onDeleted={() => {
            setDeleting(null);
            list.remove(deleting.id);
          }}
        />
      )}
    </>
  );
}
