import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import Textarea from '@cloudscape-design/components/textarea';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { createHelp, deleteHelp, listHelps, updateHelp, type Help } from '@/api/helps';
import { ConfirmDeleteModal } from '@/components/confirm-modal';
import { FormModal } from '@/components/form-modal/form-modal';
import { useRequest } from '@/hooks/use-request';

const helpSchema = z.object({
  title: z.string().check(z.trim(), z.minLength(1, 'helps.dialog.required')),
  video: z.string().check(z.trim(), z.minLength(1, 'helps.dialog.required')),
  description: z.string().check(z.trim()),
});

function HelpDialog({
  record,
  onDismiss,
  onSaved,
}: {
  record: Help | undefined;
  onDismiss: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  return (
    <FormModal
      title={record ? t('helps.dialog.editTitle') : t('helps.dialog.addTitle')}
      initial={{ title: record?.title ?? '', video: record?.video ?? '', description: record?.description ?? '' }}
      schema={helpSchema}
      onSubmit={(input) => (record ? updateHelp(record.id, input) : createHelp(input))}
      savedText={t('helps.dialog.saved')}
      onSaved={onSaved}
      onDismiss={onDismiss}
      submitText={t('helps.dialog.save')}
      cancelText={t('helps.dialog.cancel')}
    >
      {(form) => (
        <Form>
          <SpaceBetween size="m">
            <FormField label={t('helps.dialog.title')} errorText={form.error('title')}>
              <Input {...form.text('title')} />
            </FormField>
            <FormField
              label={t('helps.dialog.video')}
              constraintText={t('helps.dialog.videoHint')}
              errorText={form.error('video')}
            >
              <Input {...form.text('video')} />
            </FormField>
            <FormField label={t('helps.dialog.description')} errorText={form.error('description')}>
              <Textarea rows={3} {...form.text('description')} />
            </FormField>
          </SpaceBetween>
        </Form>
      )}
    </FormModal>
  );
}

/**
 * The owner's help entries (the spec puts them in the super tabs of /settings; decisions D146): title, video
 * and description, added, edited and deleted in a dialog. A failure is the spec's 'Não foi possível realizar
 * a operação' toast (through the server's error text).
 */
export function HelpsManager() {
  const { t } = useTranslation();
  const helps = useRequest((signal) => listHelps({ signal }), []);
  const [editing, setEditing] = useState<{ item: Help | undefined } | null>(null);
  const [deleting, setDeleting] = useState<Help | null>(null);
  const items = helps.status === 'ready' ? helps.data : [];
  return (
    <>
      <Table
        items={items}
        loading={helps.status === 'loading'}
        loadingText={t('helps.loading')}
        trackBy="id"
        header={
          <Header
            counter={`(${items.length})`}
            actions={
              <Button variant="primary" onClick={() => setEditing({ item: undefined })}>
                {t('helps.manage.add')}
              </Button>
            }
          >
            {t('helps.manage.header')}
          </Header>
        }
        empty={
          <Box textAlign="center">{helps.status === 'error' ? t('helps.loadError') : t('helps.manage.empty')}</Box>
        }
        columnDefinitions={[
          { id: 'title', header: t('helps.manage.columns.title'), cell: (h) => h.title, isRowHeader: true },
          { id: 'video', header: t('helps.manage.columns.video'), cell: (h) => h.video },
          { id: 'description', header: t('helps.manage.columns.description'), cell: (h) => h.description || '—' },
          {
            id: 'actions',
            header: t('helps.manage.columns.actions'),
            cell: (h) => (
              <SpaceBetween direction="horizontal" size="xxs">
                <Button
                  variant="icon"
                  iconName="edit"
                  ariaLabel={t('helps.manage.edit', { name: h.title })}
                  onClick={() => setEditing({ item: h })}
                />
                <Button
                  variant="icon"
                  iconName="remove"
                  ariaLabel={t('helps.manage.remove', { name: h.title })}
                  onClick={() => setDeleting(h)}
                />
              </SpaceBetween>
            ),
          },
        ]}
      />
      {editing && (
        <HelpDialog
          record={editing.item}
          onDismiss={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            helps.reload();
          }}
        />
      )}
      {deleting && (
        <ConfirmDeleteModal
          section="helps.delete"
          name={deleting.title}
          remove={() => deleteHelp(deleting.id)}
          onDismiss={() => setDeleting(null)}
          onDeleted={() => {
            setDeleting(null);
            helps.reload();
          }}
        />
      )}
    </>
  );
}
