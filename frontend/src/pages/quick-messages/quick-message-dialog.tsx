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
import Toggle from '@cloudscape-design/components/toggle';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/api/api-error';
import {
  createQuickMessage,
  deleteQuickMessageMedia,
  QUICK_MESSAGE_MEDIA_MAX_BYTES,
  updateQuickMessage,
  uploadQuickMessageMedia,
  type QuickMessage,
} from '@/api/quick-messages';
import { useNotifications } from '@/components/notifications';

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
  record?: QuickMessage;
  onDismiss: () => void;
  onSaved: (saved: QuickMessage, created: boolean) => void;
}) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const [shortcode, setShortcode] = useState(record?.shortcode ?? '');
  const [message, setMessage] = useState(record?.message ?? '');
  const [geral, setGeral] = useState(record?.geral ?? false);
  const [visao, setVisao] = useState(record?.visao ?? false);
  const [file, setFile] = useState<File | null>(null);
  const [removeMedia, setRemoveMedia] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const shortcodeError =
    (submitted && shortcode.trim() === '' ? t('quickMessages.dialog.required') : undefined) ??
    serverErrors['body.shortcode'];
  const tooLarge = file !== null && file.size > QUICK_MESSAGE_MEDIA_MAX_BYTES;

  const save = async () => {
    setSubmitted(true);
    if (shortcode.trim() === '' || tooLarge) return;
    setSaving(true);
    setServerErrors({});
    try {
      const input = { shortcode: shortcode.trim(), message, geral, visao };
      let saved = record ? await updateQuickMessage(record.id, input) : await createQuickMessage(input);
      if (file) saved = await uploadQuickMessageMedia(saved.id, file);
      else if (removeMedia && saved.mediaPath) saved = await deleteQuickMessageMedia(saved.id);
      notify.success(t('quickMessages.dialog.saved'));
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
      size="medium"
      header={record ? t('quickMessages.dialog.editTitle') : t('quickMessages.dialog.addTitle')}
      onDismiss={() => {
        if (!saving) onDismiss();
      }}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" disabled={saving} onClick={onDismiss}>
              {t('quickMessages.dialog.cancel')}
            </Button>
            <Button variant="primary" loading={saving} onClick={() => void save()}>
              {t('quickMessages.dialog.save')}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <Form>
        <SpaceBetween size="m">
          <FormField label={t('quickMessages.dialog.shortcode')} errorText={shortcodeError}>
            <Input value={shortcode} onChange={({ detail }) => setShortcode(detail.value)} />
          </FormField>
          <FormField label={t('quickMessages.dialog.message')} errorText={serverErrors['body.message']}>
            <Textarea rows={5} value={message} onChange={({ detail }) => setMessage(detail.value)} />
          </FormField>
          <FormField label={t('quickMessages.dialog.geral')} description={t('quickMessages.dialog.geralHint')}>
            <Toggle checked={geral} onChange={({ detail }) => setGeral(detail.checked)}>
              {t('quickMessages.dialog.geralToggle')}
            </Toggle>
          </FormField>
          <FormField label={t('quickMessages.dialog.visao')} description={t('quickMessages.dialog.visaoHint')}>
            <Toggle checked={visao} onChange={({ detail }) => setVisao(detail.checked)}>
              {t('quickMessages.dialog.visaoToggle')}
            </Toggle>
          </FormField>
          <FormField
            label={t('quickMessages.dialog.media')}
            constraintText={t('quickMessages.dialog.mediaHint')}
            errorText={tooLarge ? t('quickMessages.dialog.mediaTooLarge') : undefined}
          >
            <SpaceBetween direction="horizontal" size="s" alignItems="center">
              {record?.mediaPath && !file && !removeMedia && (
                <Link href={record.mediaPath} external>
                  {record.mediaName ?? record.mediaPath}
                </Link>
              )}
              {record?.mediaPath && !file && (
                <Button variant="inline-link" onClick={() => setRemoveMedia(!removeMedia)}>
                  {removeMedia ? t('quickMessages.dialog.mediaKeep') : t('quickMessages.dialog.mediaRemove')}
                </Button>
              )}
              <FileInput value={file ? [file] : []} onChange={({ detail }) => setFile(detail.value[0] ?? null)}>
                {t('quickMessages.dialog.mediaChoose')}
              </FileInput>
              {file && <Box variant="span">{file.name}</Box>}
              {file && (
                <Button variant="inline-link" onClick={() => setFile(null)}>
                  {t('quickMessages.dialog.mediaDiscard')}
                </Button>
              )}
            </SpaceBetween>
          </FormField>
        </SpaceBetween>
      </Form>
    </Modal>
  );
}
