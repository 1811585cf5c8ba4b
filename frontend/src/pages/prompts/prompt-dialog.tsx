import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/api/api-error';
import { createPrompt, PROMPT_VOICES, SECRET_MASK, updatePrompt, type PromptView } from '@/api/integrations';
import { listQueues } from '@/api/queues';
import { useNotifications } from '@/components/notifications';

type Values = Record<
  | 'name'
  | 'prompt'
  | 'voice'
  | 'voiceKey'
  | 'voiceRegion'
  | 'maxTokens'
  | 'temperature'
  | 'apiKey'
  | 'queueId'
  | 'maxMessages',
  string
>;

const valuesOf = (r?: PromptView): Values => ({
  name: r?.name ?? '',
  prompt: r?.prompt ?? '',
  voice: r?.voice ?? 'texto',
  voiceKey: r?.voiceKey ?? '',
  voiceRegion: r?.voiceRegion ?? '',
  maxTokens: String(r?.maxTokens ?? 100),
  temperature: String(r?.temperature ?? 1),
  apiKey: r ? SECRET_MASK : '',
  queueId: r ? String(r.queueId) : '',
  maxMessages: String(r?.maxMessages ?? 10),
});

/** A voice's name as listed (administration spec §3: 'Texto' and the fifteen pt-BR voices). */
const voiceLabel = (v: string, text: string) =>
  v === 'texto' ? text : v.replace(/^pt-BR-/, '').replace(/Neural$/, '');

/**
 * Add or edit an AI prompt (administration spec §2, §5): name 5 to 100 ('Muito curto!' / 'Muito longo!',
 * 'Obrigatório'), prompt at least 50 characters, voice ('Texto' or a pt-BR voice), the API key (masked; a
 * saved key stays unless a new one is typed), max tokens, temperature, max messages and the queue ('Informe
 * o setor' without one) — where the assistant hands a customer who asks for a person.
 */
export function PromptDialog({
  record,
  onDismiss,
  onSaved,
}: {
  record?: PromptView;
  onDismiss: () => void;
  onSaved: (saved: PromptView) => void;
}) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const [values, setValues] = useState<Values>(() => valuesOf(record));
  const [queues, setQueues] = useState<{ id: number; name: string }[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    listQueues({ signal: controller.signal })
      .then((all) => setQueues(all.map((q) => ({ id: q.id, name: q.name }))))
      .catch(() => setQueues([]));
    return () => controller.abort();
  }, []);

  const set = (key: keyof Values) => (value: string) => setValues((v) => ({ ...v, [key]: value }));
  const problem = (key: keyof Values): string | undefined => {
    const v = values[key].trim();
    switch (key) {
      case 'name':
        return v === ''
          ? t('prompts.dialog.required')
          : [...v].length < 5
            ? t('prompts.dialog.tooShort')
            : [...v].length > 100
              ? t('prompts.dialog.tooLong')
              : undefined;
      case 'prompt':
        return v === '' ? t('prompts.dialog.required') : [...v].length < 50 ? t('prompts.dialog.tooShort') : undefined;
      case 'queueId':
        return v === '' ? t('prompts.dialog.queueRequired') : undefined;
      case 'apiKey':
      case 'maxTokens':
      case 'temperature':
      case 'maxMessages':
        return v === '' ? t('prompts.dialog.required') : undefined;
      default:
        return undefined;
    }
  };
  const keys = Object.keys(values) as (keyof Values)[];
  const invalid = keys.some((k) => problem(k) !== undefined);
  const errorOf = (key: keyof Values) => (submitted ? problem(key) : undefined) ?? serverErrors[`body.${key}`];

  const save = async () => {
    setSubmitted(true);
    if (invalid) return;
    setSaving(true);
    setServerErrors({});
    const body = {
      name: values.name.trim(),
      prompt: values.prompt.trim(),
      voice: values.voice,
      voiceKey: values.voiceKey.trim() || null,
      voiceRegion: values.voiceRegion.trim() || null,
      maxTokens: Number(values.maxTokens),
      temperature: Number(values.temperature),
      apiKey: values.apiKey.trim(),
      queueId: Number(values.queueId),
      maxMessages: Number(values.maxMessages),
    };
    try {
      const saved = record ? await updatePrompt(record.id, body) : await createPrompt(body);
      notify.success(t('prompts.dialog.saved'));
      onSaved(saved);
    } catch (err) {
      if (err instanceof ApiError && err.fields.length > 0) {
        setServerErrors(Object.fromEntries(err.fields.map((f) => [f.field, f.reason])));
      }
      notify.error(err);
    } finally {
      setSaving(false);
    }
  };

  const input = (key: keyof Values, type: 'text' | 'number' | 'password' = 'text') => (
    <FormField label={t(`prompts.fields.${key}`)} errorText={errorOf(key)}>
      <Input
        type={type}
        value={values[key]}
        onChange={({ detail }) => set(key)(detail.value)}
        ariaLabel={t(`prompts.fields.${key}`)}
      />
    </FormField>
  );
  const voiceOptions = PROMPT_VOICES.map((v) => ({ value: v, label: voiceLabel(v, t('prompts.voiceText')) }));
  const queueOptions = queues.map((q) => ({ value: String(q.id), label: q.name }));

  return (
    <Modal
      visible
      onDismiss={onDismiss}
      header={record ? t('prompts.dialog.editTitle') : t('prompts.dialog.addTitle')}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              {t('prompts.dialog.cancel')}
            </Button>
            <Button variant="primary" loading={saving} onClick={() => void save()}>
              {t('prompts.dialog.save')}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <Form>
        <SpaceBetween size="m">
          {input('name')}
          {input('apiKey', 'password')}
          <FormField label={t('prompts.fields.prompt')} errorText={errorOf('prompt')}>
            <Textarea
              rows={10}
              value={values.prompt}
              onChange={({ detail }) => set('prompt')(detail.value)}
              ariaLabel={t('prompts.fields.prompt')}
            />
          </FormField>
          <FormField label={t('prompts.fields.queueId')} errorText={errorOf('queueId')}>
            <Select
              selectedOption={queueOptions.find((o) => o.value === values.queueId) ?? null}
              options={queueOptions}
              placeholder={t('prompts.dialog.chooseQueue')}
              onChange={({ detail }) => set('queueId')(detail.selectedOption.value ?? '')}
              ariaLabel={t('prompts.fields.queueId')}
            />
          </FormField>
          <FormField label={t('prompts.fields.voice')}>
            <Select
              selectedOption={voiceOptions.find((o) => o.value === values.voice) ?? voiceOptions[0]!}
              options={voiceOptions}
              onChange={({ detail }) => set('voice')(detail.selectedOption.value ?? 'texto')}
              ariaLabel={t('prompts.fields.voice')}
            />
          </FormField>
          {input('voiceKey', 'password')}
          {input('voiceRegion')}
          {input('temperature', 'number')}
          {input('maxTokens', 'number')}
          {input('maxMessages', 'number')}
        </SpaceBetween>
      </Form>
    </Modal>
  );
}
