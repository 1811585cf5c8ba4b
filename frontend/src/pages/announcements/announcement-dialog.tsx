import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FileInput from '@cloudscape-design/components/file-input';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Link from '@cloudscape-design/components/link';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import Toggle from '@cloudscape-design/components/toggle';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import {
  ANNOUNCEMENT_IMAGE_ACCEPT,
  ANNOUNCEMENT_IMAGE_MAX_BYTES,
  createAnnouncement,
  deleteAnnouncementImage,
  updateAnnouncement,
  uploadAnnouncementImage,
  type Announcement,
} from '@/api/announcements';
import { FormModal, type FormApi } from '@/components/form-modal/form-modal';

interface AnnouncementValues {
  title: string;
  text: string;
  priority: 1 | 2 | 3;
  status: boolean;
  /** A new image to upload after the save. */
  file: File | null;
  /** Drop the current image on save. */
  removeImage: boolean;
}

const IMAGE_NAME = /\.(png|jpe?g)$/i;

/** Administration §5: title and text required; one png, jpg or jpeg image (the server takes up to 2 MB). */
const announcementSchema = z.object({
  title: z.string().check(z.trim(), z.minLength(1, 'announcements.dialog.required')),
  text: z.string().check(z.trim(), z.minLength(1, 'announcements.dialog.required')),
  priority: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  status: z.boolean(),
  file: z.custom<File | null>().check(
    z.refine((file) => file === null || IMAGE_NAME.test(file.name), 'announcements.dialog.imageType'),
    z.refine(
      (file) => file === null || file.size <= ANNOUNCEMENT_IMAGE_MAX_BYTES,
      'announcements.dialog.imageTooLarge',
    ),
  ),
  removeImage: z.boolean(),
});

/**
 * Add or edit an announcement (administration spec "Announcements", §4 defaults priority 3 and active, §5):
 * title, text, priority, status and one image, sent after the announcement is saved (it needs the id).
 */
export function AnnouncementDialog({
  record,
  onDismiss,
  onSaved,
}: {
  record: Announcement | undefined;
  onDismiss: () => void;
  onSaved: (saved: Announcement) => void;
}) {
  const { t } = useTranslation();
  const initial: AnnouncementValues = {
    title: record?.title ?? '',
    text: record?.text ?? '',
    priority: record?.priority ?? 3,
    status: record?.status ?? true,
    file: null,
    removeImage: false,
  };
  return (
    <FormModal
      title={record ? t('announcements.dialog.editTitle') : t('announcements.dialog.addTitle')}
      initial={initial}
      schema={announcementSchema}
      checkAtOnce={['file']}
      onSubmit={async ({ file, removeImage, ...input }) => {
        let saved = record ? await updateAnnouncement(record.id, input) : await createAnnouncement(input);
        if (file) saved = await uploadAnnouncementImage(saved.id, file);
        else if (removeImage && saved.mediaPath) saved = await deleteAnnouncementImage(saved.id);
        return saved;
      }}
      savedText={t('announcements.dialog.saved')}
      onSaved={onSaved}
      onDismiss={onDismiss}
      submitText={t('announcements.dialog.save')}
      cancelText={t('announcements.dialog.cancel')}
    >
      {(form) => <AnnouncementFields form={form} record={record} />}
    </FormModal>
  );
}

function AnnouncementFields({ form, record }: { form: FormApi<AnnouncementValues>; record: Announcement | undefined }) {
  const { t } = useTranslation();
  const { file, removeImage, priority } = form.values;
  const options = ([1, 2, 3] as const).map((p) => ({ value: String(p), label: t(`announcements.priority.${p}`) }));
  return (
    <Form>
      <SpaceBetween size="m">
        <FormField label={t('announcements.dialog.title')} errorText={form.error('title')}>
          <Input {...form.text('title')} />
        </FormField>
        <FormField label={t('announcements.dialog.text')} errorText={form.error('text')}>
          <Textarea rows={5} {...form.text('text')} />
        </FormField>
        <FormField label={t('announcements.dialog.priority')}>
          <Select
            selectedOption={options.find((o) => o.value === String(priority)) ?? null}
            options={options}
            onChange={({ detail }) => form.set({ priority: Number(detail.selectedOption.value) as 1 | 2 | 3 })}
          />
        </FormField>
        <FormField label={t('announcements.dialog.status')}>
          <Toggle {...form.toggle('status')}>{t('announcements.dialog.statusToggle')}</Toggle>
        </FormField>
        <FormField
          label={t('announcements.dialog.image')}
          constraintText={t('announcements.dialog.imageHint')}
          errorText={form.error('file')}
        >
          <SpaceBetween direction="horizontal" size="s" alignItems="center">
            {record?.mediaPath && !file && !removeImage && (
              <Link href={record.mediaPath} external>
                {record.mediaName ?? record.mediaPath}
              </Link>
            )}
            {record?.mediaPath && !file && (
              <Button variant="inline-link" onClick={() => form.set({ removeImage: !removeImage })}>
                {removeImage ? t('announcements.dialog.imageKeep') : t('announcements.dialog.imageRemove')}
              </Button>
            )}
            <FileInput
              accept={ANNOUNCEMENT_IMAGE_ACCEPT}
              value={file ? [file] : []}
              onChange={({ detail }) => form.set({ file: detail.value[0] ?? null })}
            >
              {t('announcements.dialog.imageChoose')}
            </FileInput>
            {file && <Box variant="span">{file.name}</Box>}
            {file && (
              <Button variant="inline-link" onClick={() => form.set({ file: null })}>
                {t('announcements.dialog.imageDiscard')}
              </Button>
            )}
          </SpaceBetween>
        </FormField>
      </SpaceBetween>
    </Form>
  );
}
