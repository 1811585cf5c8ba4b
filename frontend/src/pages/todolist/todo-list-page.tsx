import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Grid from '@cloudscape-design/components/grid';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readTodos, TODO_STORAGE_KEY, writeTodos, type TodoItem } from './todo-storage';

/**
 * /todolist (administration spec §2 Other): a personal to-do list kept in this browser. 'Nova tarefa' and
 * Adicionar add an item; the pencil loads an item into the input and Salvar stores the new text; each item
 * shows its text and when it last changed. Blank or whitespace-only text is ignored (core spec §5).
 */
export function TodoListPage() {
  const { t, i18n } = useTranslation();
  const [items, setItems] = useState<TodoItem[]>(readTodos);
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<number | null>(null);

  // Another tab of the app changed the list: show its version.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === TODO_STORAGE_KEY || event.key === null) setItems(readTodos());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const store = (next: TodoItem[]) => {
    setItems(next);
    writeTodos(next);
  };

  const submit = () => {
    const value = text.trim();
    if (value === '') return;
    const now = new Date().toISOString();
    if (editing === null) store([...items, { text: value, createdAt: now, updatedAt: now }]);
    else store(items.map((item, i) => (i === editing ? { ...item, text: value, updatedAt: now } : item)));
    setText('');
    setEditing(null);
  };

  const startEdit = (index: number) => {
    setEditing(index);
    setText(items[index]?.text ?? '');
  };

  const cancelEdit = () => {
    setEditing(null);
    setText('');
  };

  const remove = (index: number) => {
    store(items.filter((_, i) => i !== index));
    if (editing === index) cancelEdit();
    else if (editing !== null && editing > index) setEditing(editing - 1);
  };

  const when = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'short', timeStyle: 'short' });
  const rows = items.map((item, index) => ({ item, index }));
  const columns: TableProps.ColumnDefinition<(typeof rows)[number]>[] = [
    { id: 'text', header: t('todo.columns.text'), cell: ({ item }) => item.text, isRowHeader: true },
    {
      id: 'updatedAt',
      header: t('todo.columns.updatedAt'),
      cell: ({ item }) => <time dateTime={item.updatedAt}>{when.format(new Date(item.updatedAt))}</time>,
    },
    {
      id: 'actions',
      header: t('todo.columns.actions'),
      cell: ({ item, index }) => (
        <SpaceBetween direction="horizontal" size="xxs">
          <Button
            variant="icon"
            iconName="edit"
            ariaLabel={t('todo.edit', { text: item.text })}
            onClick={() => startEdit(index)}
          />
          <Button
            variant="icon"
            iconName="remove"
            ariaLabel={t('todo.delete', { text: item.text })}
            onClick={() => remove(index)}
          />
        </SpaceBetween>
      ),
    },
  ];

  return (
    <ContentLayout header={<Header variant="h1">{t('todo.title')}</Header>}>
      <SpaceBetween size="l">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Grid gridDefinition={[{ colspan: { default: 12, s: 8 } }, { colspan: { default: 12, s: 4 } }]}>
            <Input
              value={text}
              placeholder={t('todo.newTask')}
              ariaLabel={t('todo.newTask')}
              onChange={({ detail }) => setText(detail.value)}
            />
            <SpaceBetween direction="horizontal" size="xs">
              <Button variant="primary" formAction="submit">
                {editing === null ? t('todo.add') : t('todo.save')}
              </Button>
              {editing !== null && (
                <Button formAction="none" onClick={cancelEdit}>
                  {t('todo.cancel')}
                </Button>
              )}
            </SpaceBetween>
          </Grid>
        </form>
        <Table
          items={rows}
          trackBy={({ item, index }) => `${item.createdAt}#${index}`}
          columnDefinitions={columns}
          empty={
            <Box textAlign="center" color="inherit">
              {t('todo.empty')}
            </Box>
          }
        />
      </SpaceBetween>
    </ContentLayout>
  );
}
