import AttributeEditor from '@cloudscape-design/components/attribute-editor';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FileInput from '@cloudscape-design/components/file-input';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Link from '@cloudscape-design/components/link';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/api/api-error';
import {
  createFileList,
  FILE_LIST_FILE_MAX_BYTES,
  FILE_LIST_MAX_OPTIONS,
  updateFileList,
  uploadFileListFiles,
  type FileListOptionView,
  type FileListView,
  type OptionFile,
} from '@/api/files';
import { useNotifications } from '@/components/notifications';

/** One option row: a stored option (with its id and file) or a new one, and the file chosen for it. */
interface OptionRow {
  key: number;
  id?: number;
  name: string;
  stored?: FileListOptionView;
  file: File | null;
}

/** A file's name without its extension: the option name offered when none was typed. */
const baseName = (fileName: string) => fileName.replace(/\.[^.]+$/, '').trim();

/**
 * Add or edit a file list (administration spec §2 "Files", §5): name (at least 3 characters, 'nome muito
 * curto'), message ('Obrigatório') and repeatable options, each a name and a file, removable, with a
 * '+ Adicionar' control. The list is saved first (new options get their ids), then the chosen files are
 * uploaded to their options; a removed option's file is deleted by the server on save.
 */
export function FileListDialog({
  record,
  onDismiss,
  onSaved,
}: {
  /** The list to edit; none to add one. */
  record?: FileListView;
  onDismiss: () => void;
  onSaved: (saved: FileListView, created: boolean) => void;
}) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const nextKey = useRef(0);
  const row = (fields: Omit<OptionRow, 'key'>): OptionRow => ({ key: (nextKey.current += 1), ...fields });
  const [name, setName] = useState(record?.name ?? '');
  const [message, setMessage] = useState(record?.message ?? '');
  const [options, setOptions] = useState<OptionRow[]>(() =>
    (record?.options ?? []).map((o) => row({ id: o.id, name: o.name, stored: o, file: null })),
  );
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const trimmedName = name.trim();
  const fileTooLarge = (o: OptionRow) => o.file !== null && o.file.size > FILE_LIST_FILE_MAX_BYTES;
  const nameProblem =
    trimmedName === ''
      ? t('files.dialog.required')
      : [...trimmedName].length < 3
        ? t('files.dialog.nameTooShort')
        : undefined;
  const messageProblem = message.trim() === '' ? t('files.dialog.required') : undefined;
  const invalid =
    nameProblem !== undefined ||
    messageProblem !== undefined ||
    options.some((o) => o.name.trim() === '' || fileTooLarge(o));
  const optionNameError = (o: OptionRow, i: number) =>
    (submitted && o.name.trim() === '' ? t('files.dialog.required') : undefined) ??
    serverErrors[`body.options.${i}.name`];
  const fileError = (o: OptionRow, i: number) =>
    fileTooLarge(o) ? t('files.dialog.fileTooLarge') : serverErrors[`body.options.${i}.id`];

  const change = (key: number, fields: Partial<OptionRow>) =>
    setOptions((rows) => rows.map((r) => (r.key === key ? { ...r, ...fields } : r)));

  const save = async () => {
    setSubmitted(true);
    if (invalid) return;
    setSaving(true);
    setServerErrors({});
    try {
      const input = {
        name: trimmedName,
        message,
        options: options.map((o) => ({ ...(o.id ? { id: o.id } : {}), name: o.name.trim() })),
      };
      let saved = record ? await updateFileList(record.id, input) : await createFileList(input);
      // The server keeps the options in the order sent: the n-th row is the n-th option, ids and all.
      const uploads: OptionFile[] = options.flatMap((o, i) => {
        const optionId = saved.options[i]?.id;
        return o.file && optionId !== undefined ? [{ optionId, file: o.file }] : [];
      });
      if (uploads.length > 0) saved = await uploadFileListFiles(saved.id, uploads);
      notify.success(t('files.dialog.saved'));
      onSaved(saved, !record);
    } catch (err) {
      if (err instanceof ApiError && err.fields.length > 0) {
        setServerErrors(Object.fromEntries(err.fields.map((f) => [f.field, f.reason])));
      }
      notify.error(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      visible
      size="large"
      header={record ? t('files.dialog.editTitle') : t('files.dialog.addTitle')}
      onDismiss={() => {
        if (!saving) onDismiss();
      }}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" disabled={saving} onClick={onDismiss}>
              {t('files.dialog.cancel')}
            </Button>
            <Button variant="primary" loading={saving} onClick={() => void save()}>
              {t('files.dialog.save')}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <Form>
        <SpaceBetween size="m">
          <FormField
            label={t('files.dialog.name')}
            errorText={(submitted ? nameProblem : undefined) ?? serverErrors['body.name']}
          >
            <Input value={name} onChange={({ detail }) => setName(detail.value)} />
          </FormField>
          <FormField
            label={t('files.dialog.message')}
            errorText={(submitted ? messageProblem : undefined) ?? serverErrors['body.message']}
          >
            <Textarea rows={4} value={message} onChange={({ detail }) => setMessage(detail.value)} />
          </FormField>
          <FormField
            label={t('files.dialog.options')}
            description={t('files.dialog.optionsHint')}
            errorText={serverErrors['body.options']}
            stretch
          >
            <AttributeEditor<OptionRow>
              items={options}
              addButtonText={t('files.dialog.addOption')}
              removeButtonText={t('files.dialog.removeOption')}
              removeButtonAriaLabel={(o) => t('files.dialog.removeOptionNamed', { name: o.name || '—' })}
              disableAddButton={options.length >= FILE_LIST_MAX_OPTIONS}
              empty={t('files.dialog.emptyOptions')}
              onAddButtonClick={() => setOptions((rows) => [...rows, row({ name: '', file: null })])}
              onRemoveButtonClick={({ detail }) => setOptions((rows) => rows.filter((_, i) => i !== detail.itemIndex))}
              definition={[
                {
                  label: t('files.dialog.optionName'),
                  control: (o) => (
                    <Input value={o.name} onChange={({ detail }) => change(o.key, { name: detail.value })} />
                  ),
                  errorText: optionNameError,
                },
                {
                  label: t('files.dialog.optionFile'),
                  control: (o) => (
                    <SpaceBetween direction="horizontal" size="xs" alignItems="center">
                      <FileInput
                        value={o.file ? [o.file] : []}
                        onChange={({ detail }) => {
                          const file = detail.value[0] ?? null;
                          change(o.key, {
                            file,
                            ...(file && o.name.trim() === '' ? { name: baseName(file.name) } : {}),
                          });
                        }}
                      >
                        {t('files.dialog.chooseFile')}
                      </FileInput>
                      {o.file ? (
                        <Box variant="span">{o.file.name}</Box>
                      ) : o.stored?.path ? (
                        <Link href={o.stored.path} external>
                          {o.stored.fileName ?? o.stored.name}
                        </Link>
                      ) : (
                        <Box variant="span" color="text-status-inactive">
                          {t('files.dialog.noFile')}
                        </Box>
                      )}
                    </SpaceBetween>
                  ),
                  errorText: fileError,
                  constraintText: t('files.dialog.fileHint'),
                },
              ]}
            />
          </FormField>
        </SpaceBetween>
      </Form>
    </Modal>
  );
}
