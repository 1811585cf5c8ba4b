import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FileInput from '@cloudscape-design/components/file-input';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import Toggle from '@cloudscape-design/components/toggle';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import {
  createQuickMessage,
  deleteQuickMessageMedia,
  QUICK_MESSAGE_MEDIA_MAX_BYTES,
  updateQuickMessage,
  uploadQuickMessageMedia,
  type QuickMessage,
} from '@/api/quick-messages';
import { FormModal, type FormApi } from '@/components/form-modal/form-modal';

interface QuickMessageValues {
  shortcode: string;
  message: string;
  geral: boolean;
  visao: boolean;
  /** A new attachment to upload after the save. */
  file: File | null;
  /** Drop the current attachment on save. */
  removeMedia: boolean;
}

/** The spec's rules (D58): the shortcode is required ('Obrigatório'); an attachment is at most 2.5 MB. */
const quickMessageSchema = z.object({
  shortcode: z.string().check(z.trim(), z.minLength(1, 'quickMessages.dialog.required')),
  message: z.string(),
  geral: z.boolean(),
  visao: z.boolean(),
  file: z
    .custom<File | null>()
    .check(
      z.refine(
        (file) => file === null || file.size <= QUICK_MESSAGE_MEDIA_MAX_BYTES,
        'quickMessages.dialog.mediaTooLarge',
      ),
    ),
  removeMedia: z.boolean(),
});

/**
 * Add or edit a quick reply (administration spec "Quick replies"): shortcode (required, 'Obrigatório'),
 * message, shared (`geral`), owner-only edits (`visao`) and one attachment. The attachment is sent after the
 * reply is saved (it needs the reply's id); removing the current one is a DELETE on save.
 */
export function QuickMessageDialog({
  record,
  onDismiss,
  onSaved,
}: {
  /** The reply to edit; none to add one. */
  record: QuickMessage | undefined;
  onDismiss: () => void;
  onSaved: (saved: QuickMessage) => void;
}) {
  const { t } = useTranslation();
  const initial: QuickMessageValues = {
    shortcode: record?.shortcode ?? '',
    message: record?.message ?? '',
    geral: record?.geral ?? false,
    visao: record?.visao ?? false,
    file: null,
    removeMedia: false,
  };
  return (
    <FormModal
      title={record ? t('quickMessages.dialog.editTitle') : t('quickMessages.dialog.addTitle')}
      initial={initial}
      schema={quickMessageSchema}
      checkAtOnce={['file']}
      onSubmit={async ({ file, removeMedia, ...input }) => {
        let saved = record ? await updateQuickMessage(record.id, input) : await createQuickMessage(input);
        if (file) saved = await uploadQuickMessageMedia(saved.id, file);
        else if (removeMedia && saved.mediaPath) saved = await deleteQuickMessageMedia(saved.id);
        return saved;
      }}
      savedText={t('quickMessages.dialog.saved')}
      onSaved={onSaved}
      onDismiss={onDismiss}
      submitText={t('quickMessages.dialog.save')}
      cancelText={t('quickMessages.dialog.cancel')}
    >
      {(form) => <QuickMessageFields form={form} record={record} />}
    </FormModal>
  );
}

function QuickMessageFields({ form, record }: { form: FormApi<QuickMessageValues>; record: QuickMessage | undefined }) {
  const { t } = useTranslation();
  const { file, removeMedia } = form.values;
  return (
    <Form>
      <SpaceBetween size="m">
        <FormField label={t('quickMessages.dialog.shortcode')} errorText={form.error('shortcode')}>
          <Input {...form.text('shortcode')} />
        </FormField>
        <FormField label={t('quickMessages.dialog.message')} errorText={form.error('message')}>
          <Textarea rows={5} {...form.text('message')} />
        </FormField>
        <FormField label={t('quickMessages.dialog.geral')} description={t('quickMessages.dialog.geralHint')}>
          <Toggle {...form.toggle('geral')}>{t('quickMessages.dialog.geralToggle')}</Toggle>
        </FormField>
        <FormField label={t('quickMessages.dialog.visao')} description={t('quickMessages.dialog.visaoHint')}>
          <Toggle {...form.toggle('visao')}>{t('quickMessages.dialog.visaoToggle')}</Toggle>
        </FormField>
        <FormField
          label={t('quickMessages.dialog.media')}
          constraintText={t('quickMessages.dialog.mediaHint')}
          errorText={form.error('file')}
        >
          <SpaceBetween direction="horizontal" size="s" alignItems="center">
            {record?.mediaPath && !file && !removeMedia && (
              <Link href={record.mediaPath} external>
                {record.mediaName ?? record.mediaPath}
              </Link>
            )}
            {record?.mediaPath && !file && (
              <Button variant="inline-link" onClick={() => form.set({ removeMedia: !removeMedia })}>
                {removeMedia ? t('quickMessages.dialog.mediaKeep') : t('quickMessages.dialog.mediaRemove')}
              </Button>
            )}
            <FileInput
              value={file ? [file] : []}
              onChange={({ detail }) => form.set({ file: detail.value[0] ?? null })}
            >
              {t('quickMessages.dialog.mediaChoose')}
            </FileInput>
            {file && <Box variant="span">{file.name}</Box>}
            {file && (
              <Button variant="inline-link" onClick={() => form.set({ file: null })}>
                {t('quickMessages.dialog.mediaDiscard')}
              </Button>
            )}
          </SpaceBetween>
        </FormField>
      </SpaceBetween>
    </Form>
  );
}
