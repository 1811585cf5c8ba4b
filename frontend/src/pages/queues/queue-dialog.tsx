import ColumnLayout from '@cloudscape-design/components/column-layout';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Tabs from '@cloudscape-design/components/tabs';
import Textarea from '@cloudscape-design/components/textarea';
import Toggle from '@cloudscape-design/components/toggle';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getCompanySettings } from '@/api/company-settings';
import {
  createQueue,
  getQueue,
  listQueues,
  ROTATION_MINUTES,
  updateQueue,
  type QueueAdminView,
  type QueueView,
} from '@/api/queues';
import { listQueueIntegrations } from '@/api/integrations';
import { api } from '@/api/transport';
import { listUserNames } from '@/api/users';
import { FormModal, FormModalLoading, type FormApi } from '@/components/form-modal/form-modal';
import { useNotifications } from '@/components/notifications';
import { ScheduleEditor } from '@/components/schedule-editor';
import { useRequest } from '@/hooks/use-request';
import { ChatbotEditor, type Choice, type Targets } from './chatbot-editor';
import { queueSchema, toInput, valuesOf, type QueueValues } from './queue-form';

export interface QueueDialogProps {
  /** The queue to edit; without it the dialog creates one. */
  queueId?: number | undefined;
  companyId: number;
  onDismiss: () => void;
  onSaved: (queue: QueueAdminView) => void;
}

/** What the dialog reads before it opens. */
interface DialogData {
  queue: QueueAdminView | undefined;
  scheduleType: string;
  targets: Targets;
}

/**
 * GET /files/?pageNumber=1, if the file lists exist on this server: their ids and names, else none
 * (the file lists area is built separately; the dialog offers no choice until it answers).
 */
const listFileChoices = async (signal: AbortSignal): Promise<Choice[]> => {
  try {
    const page = await api().get<{ files?: Choice[] }>('/files/', { signal, query: { pageNumber: 1 } });
    return Array.isArray(page.files) ? page.files.map(({ id, name }) => ({ id, name })) : [];
  } catch {
    return [];
  }
};

/**
 * The company's queue integrations for the queue's integration field and the integration options of its
 * menu (administration §3 Queue, Chatbot option; D162). A plan without useIntegrations (403) offers none.
 */
const listIntegrationChoices = async (signal: AbortSignal): Promise<Choice[]> => {
  try {
    const page = await listQueueIntegrations({}, { signal });
    return page.queueIntegrations.map(({ id, name }) => ({ id, name }));
  } catch {
    return [];
  }
};

const loadDialog = async (queueId: number | undefined, companyId: number, signal: AbortSignal): Promise<DialogData> => {
  const [queue, settings, queues, users, files, integrations] = await Promise.all([
    queueId === undefined ? Promise.resolve(undefined) : getQueue(queueId, { signal }),
    getCompanySettings(companyId, { signal }),
    listQueues<QueueView>({ signal }),
    listUserNames({ signal }),
    listFileChoices(signal),
    listIntegrationChoices(signal),
  ]);
  return {
    queue,
    scheduleType: String(settings.scheduleType ?? 'disabled'),
    targets: {
      // An option sends customers to another queue.
      queues: queues.filter((q) => q.id !== queueId).map(({ id, name }) => ({ id, name })),
      users: users.map(({ id, name }) => ({ id, name })),
      integrations,
      files,
    },
  };
};

type TabId = 'data' | 'chatbot' | 'outOfHours' | 'schedules';

const idChoices = (choices: Choice[]): SelectProps.Option[] =>
  choices.map((c) => ({ value: String(c.id), label: c.name }));

function IdSelect({
  label,
  value,
  choices,
  onChange,
}: {
  label: string;
  value: number | null;
  choices: Choice[];
  onChange: (id: number | null) => void;
}) {
  const { t } = useTranslation();
  const none: SelectProps.Option = { value: '', label: t('queues.dialog.none') };
  const options = [none, ...idChoices(choices)];
  return (
    <FormField label={label}>
      <Select
        selectedOption={options.find((o) => o.value === (value === null ? '' : String(value))) ?? none}
        options={options}
        onChange={({ detail }) => onChange(detail.selectedOption.value ? Number(detail.selectedOption.value) : null)}
      />
    </FormField>
  );
}

function DataFields({ form, targets }: { form: FormApi<QueueValues>; targets: Targets }) {
  const { t } = useTranslation();
  const { values } = form;
  const rotation: SelectProps.Option[] = ROTATION_MINUTES.map((m) => ({
    value: String(m),
    label: m === 0 ? t('queues.dialog.rotationOff') : t('queues.dialog.minutes', { count: m }),
  }));
  const colorValid = /^#[0-9a-f]{6}$/i.test(values.color);
  return (
    <SpaceBetween size="m">
      <ColumnLayout columns={3}>
        <FormField label={t('queues.dialog.name')} errorText={form.error('name')}>
          <Input {...form.text('name')} />
        </FormField>
        <FormField label={t('queues.dialog.color')} errorText={form.error('color')}>
          <SpaceBetween direction="horizontal" size="xs" alignItems="center">
            <input
              type="color"
              aria-label={t('queues.dialog.colorPicker')}
              value={colorValid ? values.color : '#000000'}
              onChange={(e) => form.set({ color: e.target.value })}
              style={{ width: 36, height: 32, padding: 0, border: 'none', background: 'none' }}
            />
            <Input {...form.text('color')} placeholder="#RRGGBB" ariaLabel={t('queues.dialog.color')} />
          </SpaceBetween>
        </FormField>
        <FormField label={t('queues.dialog.orderQueue')} errorText={form.error('orderQueue')}>
          <Input {...form.text('orderQueue')} inputMode="numeric" />
        </FormField>
      </ColumnLayout>
      <FormField label={t('queues.dialog.greetingMessage')} errorText={form.error('greetingMessage')}>
        <Textarea rows={4} {...form.text('greetingMessage')} />
      </FormField>
      <ColumnLayout columns={2}>
        <FormField label={t('queues.dialog.rotation')}>
          <Toggle {...form.toggle('ativarRoteador')}>{t('queues.dialog.rotationToggle')}</Toggle>
        </FormField>
        <FormField label={t('queues.dialog.rotationTime')} errorText={form.error('tempoRoteador')}>
          <Select
            disabled={!values.ativarRoteador}
            selectedOption={rotation.find((o) => o.value === String(values.tempoRoteador)) ?? rotation[0]!}
            options={rotation}
            onChange={({ detail }) => form.set({ tempoRoteador: Number(detail.selectedOption.value) })}
          />
        </FormField>
        <IdSelect
          label={t('queues.dialog.integration')}
          value={values.integrationId}
          choices={targets.integrations}
          onChange={(integrationId) => form.set({ integrationId })}
        />
        <IdSelect
          label={t('queues.dialog.fileList')}
          value={values.fileListId}
          choices={targets.files}
          onChange={(fileListId) => form.set({ fileListId })}
        />
      </ColumnLayout>
      <Toggle {...form.toggle('closeTicket')}>{t('queues.dialog.closeTicket')}</Toggle>
    </SpaceBetween>
  );
}

function QueueForm({
  data,
  onDismiss,
  onSaved,
}: { data: DialogData } & Omit<QueueDialogProps, 'queueId' | 'companyId'>) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const { queue, scheduleType, targets } = data;
  const perQueueHours = scheduleType === 'queue';
  const schema = useMemo(() => queueSchema(perQueueHours), [perQueueHours]);
  const [tab, setTab] = useState<TabId>('data');
  const schedulesHinted = useRef(false);

  return (
    <FormModal
      size="max"
      title={queue ? t('queues.dialog.editTitle') : t('queues.dialog.addTitle')}
      initial={valuesOf(queue)}
      schema={schema}
      onInvalid={(fields) => {
        const first = fields[0] ?? '';
        setTab(
          first.startsWith('chatbots')
            ? 'chatbot'
            : first.startsWith('schedules')
              ? 'schedules'
              : first === 'outOfHoursMessage'
                ? 'outOfHours'
                : 'data',
        );
      }}
      onSubmit={(values) => (queue ? updateQueue(queue.id, toInput(values)) : createQueue(toInput(values)))}
      savedText={t('queues.dialog.saved')}
      onSaved={onSaved}
      onDismiss={onDismiss}
    >
      {(form) => (
        <Tabs
          activeTabId={tab}
          onChange={({ detail }) => setTab(detail.activeTabId as TabId)}
          tabs={[
            { id: 'data', label: t('queues.dialog.tabs.data'), content: <DataFields form={form} targets={targets} /> },
            {
              id: 'chatbot',
              label: t('queues.dialog.tabs.chatbot'),
              content: (
                <ChatbotEditor
                  options={form.values.chatbots}
                  onChange={(chatbots) => form.set({ chatbots })}
                  targets={targets}
                  errorOf={form.error}
                />
              ),
            },
            ...(perQueueHours
              ? [
                  {
                    id: 'outOfHours',
                    label: t('queues.dialog.tabs.outOfHours'),
                    content: (
                      <FormField
                        label={t('queues.dialog.outOfHoursMessage')}
                        errorText={form.error('outOfHoursMessage')}
                      >
                        <Textarea rows={5} {...form.text('outOfHoursMessage')} />
                      </FormField>
                    ),
                  },
                ]
              : []),
            {
              id: 'schedules',
              label: t('queues.dialog.tabs.schedules'),
              content: (
                <ScheduleEditor
                  schedules={form.values.schedules}
                  errorOf={form.error}
                  onChange={(schedules) => {
                    form.set({ schedules });
                    // Admin spec §2: the hours apply only when the queue is saved; say so once.
                    if (!schedulesHinted.current) {
                      schedulesHinted.current = true;
                      notify.notify('info', t('queues.dialog.schedulesHint'));
                    }
                  }}
                />
              ),
            },
          ]}
        />
      )}
    </FormModal>
  );
}

/**
 * The queue dialog (admin spec §2 "Queues", §5 "Queue"; decisions D89): tabs for the queue's data, its
 * chatbot menu, the out-of-hours message (when the company's hours are per queue) and its service hours.
 * It reads the queue afresh with the choices its selects need (the company's queues, users and files),
 * then saves the whole queue, menu included, with POST /queue or PUT /queue/{id}; the server's field
 * problems show on their fields, options' too.
 */
export function QueueDialog({ queueId, companyId, onDismiss, onSaved }: QueueDialogProps) {
  const { t } = useTranslation();
  const request = useRequest((signal) => loadDialog(queueId, companyId, signal), [queueId, companyId]);
  if (request.status === 'ready') return <QueueForm data={request.data} onDismiss={onDismiss} onSaved={onSaved} />;
  return (
    <FormModalLoading
      size="max"
      title={queueId === undefined ? t('queues.dialog.addTitle') : t('queues.dialog.editTitle')}
      request={request}
      loadingText={t('queues.dialog.loading')}
      errorHeader={t('queues.dialog.loadError')}
      onDismiss={onDismiss}
    />
  );
}
