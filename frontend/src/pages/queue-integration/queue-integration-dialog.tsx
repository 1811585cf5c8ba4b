import Alert from '@cloudscape-design/components/alert';
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
import { listAllFlows } from '@/api/flows';
import {
  createQueueIntegration,
  INTEGRATION_TYPES,
  testQueueIntegrationSession,
  updateQueueIntegration,
  type IntegrationType,
  type QueueIntegrationView,
  type TestSessionResult,
} from '@/api/integrations';
import { useNotifications } from '@/components/notifications';

type Values = Record<
  | 'name'
  | 'projectName'
  | 'jsonContent'
  | 'language'
  | 'urlN8N'
  | 'webhookSecret'
  | 'typebotSlug'
  | 'typebotExpires'
  | 'typebotDelayMessage'
  | 'typebotKeywordFinish'
  | 'typebotKeywordRestart'
  | 'typebotUnknownMessage'
  | 'typebotRestartMessage'
  | 'flowId',
  string
>;

const valuesOf = (r?: QueueIntegrationView): Values => ({
  name: r?.name ?? '',
  projectName: r?.projectName ?? '',
  jsonContent: r?.jsonContent ?? '',
  language: r?.language ?? 'pt-BR',
  urlN8N: r?.urlN8N ?? '',
  webhookSecret: r?.webhookSecret ?? '',
  typebotSlug: r?.typebotSlug ?? '',
  typebotExpires: String(r?.typebotExpires ?? 1),
  typebotDelayMessage: String(r?.typebotDelayMessage ?? 1000),
  typebotKeywordFinish: r?.typebotKeywordFinish ?? '',
  typebotKeywordRestart: r?.typebotKeywordRestart ?? '',
  typebotUnknownMessage: r?.typebotUnknownMessage ?? '',
  typebotRestartMessage: r?.typebotRestartMessage ?? '',
  flowId: r?.flowId ? String(r.flowId) : '',
});

/** The fields each type shows (administration spec §2 "Queue integrations"). */
const FIELDS: Record<IntegrationType, (keyof Values)[]> = {
  dialogflow: ['name', 'language', 'projectName', 'jsonContent'],
  n8n: ['name', 'urlN8N', 'webhookSecret'],
  webhook: ['name', 'urlN8N', 'webhookSecret'],
  typebot: [
    'name',
    'urlN8N',
    'typebotSlug',
    'typebotExpires',
    'typebotDelayMessage',
    'typebotKeywordFinish',
    'typebotKeywordRestart',
    'typebotUnknownMessage',
    'typebotRestartMessage',
  ],
  flowbuilder: ['name', 'flowId'],
};
const REQUIRED: Partial<Record<keyof Values, IntegrationType[]>> = {
  urlN8N: ['n8n', 'webhook', 'typebot'],
  typebotSlug: ['typebot'],
  projectName: ['dialogflow'],
  jsonContent: ['dialogflow'],
  flowId: ['flowbuilder'],
};

/**
 * Add or edit a queue integration: the type first (fixed once saved), then that type's fields; the name
 * 2 to 50 characters ('Too Short!' / 'Too Long!', 'Required'); Dialogflow has a Test button. Secrets come
 * back masked and stay stored unless a new one is typed.
 */
export function QueueIntegrationDialog({
  record,
  onDismiss,
  onSaved,
}: {
  record?: QueueIntegrationView;
  onDismiss: () => void;
  onSaved: (saved: QueueIntegrationView) => void;
}) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const [type, setType] = useState<IntegrationType>(record?.type ?? 'dialogflow');
  const [values, setValues] = useState<Values>(() => valuesOf(record));
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<TestSessionResult | null>(null);
  const [flows, setFlows] = useState<{ id: number; name: string }[]>([]);

  useEffect(() => {
    if (type !== 'flowbuilder') return;
    const controller = new AbortController();
    listAllFlows({ signal: controller.signal })
      .then((all) => setFlows(all.map((f) => ({ id: f.id, name: f.name }))))
      .catch(() => setFlows([]));
    return () => controller.abort();
  }, [type]);

  const set = (key: keyof Values) => (value: string) => setValues((v) => ({ ...v, [key]: value }));
  const name = values.name.trim();
  const problem = (key: keyof Values): string | undefined => {
    if (key === 'name') {
      if (name === '') return t('queueIntegration.dialog.required');
      if ([...name].length < 2) return t('queueIntegration.dialog.tooShort');
      if ([...name].length > 50) return t('queueIntegration.dialog.tooLong');
      return undefined;
    }
    return REQUIRED[key]?.includes(type) && values[key].trim() === ''
      ? t('queueIntegration.dialog.required')
      : undefined;
  };
  const fields = FIELDS[type];
  const invalid = fields.some((f) => problem(f) !== undefined);
  const errorOf = (key: keyof Values) => (submitted ? problem(key) : undefined) ?? serverErrors[`body.${key}`];

  const body = () => {
    const text = (k: keyof Values) => values[k].trim() || null;
    const number = (k: keyof Values) => (values[k].trim() === '' ? null : Number(values[k]));
    const all: Record<string, unknown> = {
      type,
      name,
      projectName: text('projectName'),
      jsonContent: text('jsonContent'),
      language: text('language'),
      urlN8N: text('urlN8N'),
      webhookSecret: text('webhookSecret'),
      typebotSlug: text('typebotSlug'),
      typebotExpires: number('typebotExpires'),
      typebotDelayMessage: number('typebotDelayMessage'),
      typebotKeywordFinish: text('typebotKeywordFinish'),
      typebotKeywordRestart: text('typebotKeywordRestart'),
      typebotUnknownMessage: text('typebotUnknownMessage'),
      typebotRestartMessage: text('typebotRestartMessage'),
      flowId: number('flowId'),
    };
    return Object.fromEntries(Object.entries(all).filter(([k]) => k === 'type' || fields.includes(k as keyof Values)));
  };

  const save = async () => {
    setSubmitted(true);
    if (invalid) return;
    setSaving(true);
    setServerErrors({});
    try {
      const saved = record ? await updateQueueIntegration(record.id, body()) : await createQueueIntegration(body());
      notify.success(t('queueIntegration.dialog.saved'));
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

  const test = async () => {
    setTesting(true);
    setTested(null);
    try {
      setTested(
        await testQueueIntegrationSession({
          projectName: values.projectName.trim(),
          jsonContent: values.jsonContent,
          language: values.language,
          ...(record ? { integrationId: record.id } : {}),
        }),
      );
    } catch (err) {
      notify.error(err);
    } finally {
      setTesting(false);
    }
  };

  const textField = (key: keyof Values, rows?: number) => (
    <FormField key={key} label={t(`queueIntegration.fields.${key}`)} errorText={errorOf(key)}>
      {rows ? (
        <Textarea
          value={values[key]}
          rows={rows}
          onChange={({ detail }) => set(key)(detail.value)}
          ariaLabel={t(`queueIntegration.fields.${key}`)}
        />
      ) : (
        <Input
          value={values[key]}
          type={key === 'typebotExpires' || key === 'typebotDelayMessage' ? 'number' : 'text'}
          onChange={({ detail }) => set(key)(detail.value)}
          ariaLabel={t(`queueIntegration.fields.${key}`)}
        />
      )}
    </FormField>
  );
  const languages = [
    { value: 'pt-BR', label: 'Portugues' },
    { value: 'en', label: 'Inglês' },
    { value: 'es', label: 'Español' },
  ];
  const flowOptions = flows.map((f) => ({ value: String(f.id), label: f.name }));

  return (
    <Modal
      visible
      onDismiss={onDismiss}
      header={record ? t('queueIntegration.dialog.editTitle') : t('queueIntegration.dialog.addTitle')}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              {t('queueIntegration.dialog.cancel')}
            </Button>
            <Button variant="primary" loading={saving} onClick={() => void save()}>
              {t('queueIntegration.dialog.save')}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <Form>
        <SpaceBetween size="m">
          <FormField label={t('queueIntegration.fields.type')}>
            <Select
              disabled={!!record}
              selectedOption={{ value: type, label: t(`queueIntegration.types.${type}`) }}
              options={INTEGRATION_TYPES.map((v) => ({ value: v, label: t(`queueIntegration.types.${v}`) }))}
              onChange={({ detail }) => setType(detail.selectedOption.value as IntegrationType)}
              ariaLabel={t('queueIntegration.fields.type')}
            />
          </FormField>
          {fields.map((key) => {
            if (key === 'language') {
              return (
                <FormField key={key} label={t('queueIntegration.fields.language')}>
                  <Select
                    selectedOption={languages.find((l) => l.value === values.language) ?? languages[0]!}
                    options={languages}
                    onChange={({ detail }) => set('language')(detail.selectedOption.value ?? 'pt-BR')}
                    ariaLabel={t('queueIntegration.fields.language')}
                  />
                </FormField>
              );
            }
            if (key === 'flowId') {
              return (
                <FormField key={key} label={t('queueIntegration.fields.flowId')} errorText={errorOf('flowId')}>
                  <Select
                    selectedOption={flowOptions.find((o) => o.value === values.flowId) ?? null}
                    options={flowOptions}
                    placeholder={t('queueIntegration.dialog.chooseFlow')}
                    onChange={({ detail }) => set('flowId')(detail.selectedOption.value ?? '')}
                    ariaLabel={t('queueIntegration.fields.flowId')}
                  />
                </FormField>
              );
            }
            return textField(
              key,
              key === 'jsonContent' ? 8 : key.endsWith('Message') && key !== 'typebotDelayMessage' ? 3 : undefined,
            );
          })}
          {type === 'dialogflow' && (
            <SpaceBetween size="xs">
              <Button onClick={() => void test()} loading={testing}>
                {t('queueIntegration.dialog.test')}
              </Button>
              {tested && (
                <Alert type={tested.success ? 'success' : 'error'}>
                  {tested.success
                    ? t('queueIntegration.dialog.testOk', { message: tested.message })
                    : t('queueIntegration.dialog.testFailed', { message: tested.message })}
                </Alert>
              )}
            </SpaceBetween>
          )}
        </SpaceBetween>
      </Form>
    </Modal>
  );
}
