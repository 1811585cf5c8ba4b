import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import FileInput from '@cloudscape-design/components/file-input';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import Toggle from '@cloudscape-design/components/toggle';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { listConnections } from '@/api/connections';
import { listContacts } from '@/api/contacts';
import { listQueues } from '@/api/queues';
import { listUserNames } from '@/api/users';
import {
  createSchedule,
  deleteScheduleMedia,
  SCHEDULE_MEDIA_MAX_BYTES,
  updateSchedule,
  uploadScheduleMedia,
  type Schedule,
} from '@/api/schedules';
import { FormModal, type FormApi } from '@/components/form-modal/form-modal';
import { useRequest } from '@/hooks/use-request';

interface ScheduleValues {
  contactId: number | null;
  contactName: string;
  body: string;
  sendAt: string;
  intervalo: string;
  valorIntervalo: string;
  enviarQuantasVezes: string;
  tipoDias: string;
  openTicket: boolean;
  statusTicket: string;
  /** The ticket the send opens: its attendant and queue ('' = none). */
  ticketUserId: string;
  queueId: string;
  /** The connection it goes out on ('' = the company's default). */
  whatsappId: string;
  assinar: boolean;
  file: File | null;
  removeMedia: boolean;
}

const IMAGE = /\.(png|jpe?g)$/i;

/** The spec's rules (core §5): body at least 5 ('Mensagem muito curta'), contact and time required. */
const scheduleSchema = z.object({
  contactId: z.custom<number | null>().check(z.refine((v) => v !== null, 'scheduledMessages.dialog.required')),
  contactName: z.string(),
  body: z.string().check(z.trim(), z.minLength(5, 'scheduledMessages.dialog.tooShort')),
  sendAt: z.string().check(z.minLength(1, 'scheduledMessages.dialog.required')),
  intervalo: z.string(),
  valorIntervalo: z.string(),
  enviarQuantasVezes: z.string(),
  tipoDias: z.string(),
  openTicket: z.boolean(),
  statusTicket: z.string(),
  ticketUserId: z.string(),
  queueId: z.string(),
  whatsappId: z.string(),
  assinar: z.boolean(),
  file: z
    .custom<File | null>()
    .check(
      z.refine(
        (file) => file === null || (file.size <= SCHEDULE_MEDIA_MAX_BYTES && IMAGE.test(file.name)),
        'scheduledMessages.dialog.mediaInvalid',
      ),
    ),
  removeMedia: z.boolean(),
});

const two = (n: number) => String(n).padStart(2, '0');
/** The spec's default send time: one hour ahead, `YYYY-MM-DDTHH:mm` (core §9). */
export const oneHourAhead = (now = new Date()): string => {
  const d = new Date(now.getTime() + 3600_000);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
};

/**
 * Add or edit a scheduled message (administration §2 Schedules, §3 Schedule; core §2 composer, §5, §9):
 * contact (searched by name), message, send time (the company's clock), recurrence (intervalo,
 * valorIntervalo, enviarQuantasVezes), the business-day rule (tipoDias), opening a ticket, the signature
 * and one image. Defaults per §9: one hour ahead, interval unit 1, repeat count 1, day rule 4.
 */
export function ScheduleDialog({
  record,
  contact,
  onDismiss,
  onSaved,
}: {
  record: Schedule | undefined;
  /** The contact to schedule for (the composer's ticket, `?contactId=`). */
  contact?: { id: number; name: string } | undefined;
  onDismiss: () => void;
  onSaved: (saved: Schedule) => void;
}) {
  const { t } = useTranslation();
  const initial: ScheduleValues = {
    contactId: record?.contactId ?? contact?.id ?? null,
    contactName: record?.contact?.name ?? contact?.name ?? '',
    body: record?.body ?? '',
    sendAt: record?.sendAtLocal ?? oneHourAhead(),
    intervalo: String(record?.intervalo ?? 1),
    valorIntervalo: String(record?.valorIntervalo ?? 1),
    enviarQuantasVezes: String(record?.enviarQuantasVezes ?? 1),
    tipoDias: String(record?.tipoDias ?? 4),
    openTicket: (record?.openTicket ?? 'disabled') === 'enabled',
    statusTicket: record?.statusTicket ?? 'closed',
    ticketUserId: record?.ticketUserId ? String(record.ticketUserId) : '',
    queueId: record?.queueId ? String(record.queueId) : '',
    whatsappId: record?.whatsappId ? String(record.whatsappId) : '',
    assinar: record?.assinar ?? false,
    file: null,
    removeMedia: false,
  };
  return (
    <FormModal
      title={record ? t('scheduledMessages.dialog.editTitle') : t('scheduledMessages.dialog.addTitle')}
      size="large"
      initial={initial}
      schema={scheduleSchema}
      checkAtOnce={['file']}
      onSubmit={async ({ file, removeMedia, contactName: _name, contactId, openTicket, ...v }) => {
        const input = {
          contactId: contactId!,
          body: v.body,
          sendAt: v.sendAt,
          intervalo: Number(v.intervalo),
          valorIntervalo: Number(v.valorIntervalo),
          enviarQuantasVezes: Number(v.enviarQuantasVezes),
          tipoDias: Number(v.tipoDias),
          openTicket: openTicket ? ('enabled' as const) : ('disabled' as const),
          statusTicket: v.statusTicket as 'open' | 'pending' | 'closed',
          ticketUserId: openTicket && v.ticketUserId ? Number(v.ticketUserId) : null,
          queueId: openTicket && v.queueId ? Number(v.queueId) : null,
          whatsappId: v.whatsappId ? Number(v.whatsappId) : null,
          assinar: v.assinar,
        };
        let saved = record ? await updateSchedule(record.id, input) : await createSchedule(input);
        if (file) saved = await uploadScheduleMedia(saved.id, file);
        else if (removeMedia && saved.mediaPath) saved = await deleteScheduleMedia(saved.id);
        return saved;
      }}
      savedText={t('scheduledMessages.dialog.saved')}
      onSaved={onSaved}
      onDismiss={onDismiss}
      submitText={t('scheduledMessages.dialog.save')}
      cancelText={t('scheduledMessages.dialog.cancel')}
    >
      {(form) => <ScheduleFields form={form} record={record} />}
    </FormModal>
  );
}

function ContactField({ form }: { form: FormApi<ScheduleValues> }) {
  const { t } = useTranslation();
  const [options, setOptions] = useState<{ value: string; label: string }[]>([]);
  const [loading, setLoading] = useState(false);
  const { contactId, contactName } = form.values;
  const load = async (filteringText: string) => {
    setLoading(true);
    try {
      const page = await listContacts({ searchParam: filteringText });
      setOptions(page.contacts.map((c) => ({ value: String(c.id), label: `${c.name} (${c.number})` })));
    } catch {
      setOptions([]);
    } finally {
      setLoading(false);
    }
  };
  return (
    <FormField label={t('scheduledMessages.dialog.contact')} errorText={form.error('contactId')}>
      <Select
        selectedOption={contactId === null ? null : { value: String(contactId), label: contactName }}
        options={options}
        filteringType="manual"
        statusType={loading ? 'loading' : 'finished'}
        loadingText={t('scheduledMessages.dialog.contactLoading')}
        placeholder={t('scheduledMessages.dialog.contactPlaceholder')}
        filteringPlaceholder={t('scheduledMessages.dialog.contactSearch')}
        empty={t('scheduledMessages.dialog.contactEmpty')}
        onLoadItems={({ detail }) => void load(detail.filteringText)}
        onChange={({ detail }) =>
          form.set({ contactId: Number(detail.selectedOption.value), contactName: detail.selectedOption.label ?? '' })
        }
      />
    </FormField>
  );
}

function ScheduleFields({ form, record }: { form: FormApi<ScheduleValues>; record: Schedule | undefined }) {
  const { t } = useTranslation();
  const v = form.values;
  const choice = (field: 'intervalo' | 'tipoDias' | 'statusTicket', values: string[]) => {
    const options = values.map((value) => ({ value, label: t(`scheduledMessages.${field}.${value}`) }));
    return (
      <Select
        selectedOption={options.find((o) => o.value === v[field]) ?? null}
        options={options}
        onChange={({ detail }) => form.set({ [field]: detail.selectedOption.value ?? '' })}
      />
    );
  };
  const repeats = Number(v.enviarQuantasVezes) > 1;
  // The connection, the ticket's queue and attendant (administration §3 Schedule): the company's lists.
  const connections = useRequest((signal) => listConnections({ signal }), []);
  const queues = useRequest((signal) => listQueues({ signal }), []);
  const users = useRequest((signal) => listUserNames({ signal }), []);
  const picker = (
    field: 'whatsappId' | 'queueId' | 'ticketUserId',
    noneLabel: string,
    items: { id: number; name: string }[],
    loading: boolean,
    disabled = false,
  ) => {
    const options = [{ value: '', label: noneLabel }, ...items.map((i) => ({ value: String(i.id), label: i.name }))];
    return (
      <Select
        selectedOption={options.find((o) => o.value === v[field]) ?? options[0]!}
        options={options}
        statusType={loading ? 'loading' : 'finished'}
        disabled={disabled}
        onChange={({ detail }) => form.set({ [field]: detail.selectedOption.value ?? '' })}
      />
    );
  };
  return (
    <Form>
      <SpaceBetween size="m">
        <ContactField form={form} />
        <FormField label={t('scheduledMessages.dialog.body')} errorText={form.error('body')}>
          <Textarea rows={4} {...form.text('body')} />
        </FormField>
        <ColumnLayout columns={2}>
          <FormField label={t('scheduledMessages.dialog.sendAt')} errorText={form.error('sendAt')}>
            <Input type={'datetime-local' as 'text'} {...form.text('sendAt')} />
          </FormField>
          <FormField
            label={t('scheduledMessages.dialog.tipoDias')}
            description={t('scheduledMessages.dialog.tipoDiasHint')}
            errorText={form.error('tipoDias')}
          >
            {choice('tipoDias', ['4', '5', '6'])}
          </FormField>
        </ColumnLayout>
        <ColumnLayout columns={3}>
          <FormField
            label={t('scheduledMessages.dialog.enviarQuantasVezes')}
            errorText={form.error('enviarQuantasVezes')}
          >
            <Input type="number" inputMode="numeric" {...form.text('enviarQuantasVezes')} />
          </FormField>
          <FormField label={t('scheduledMessages.dialog.valorIntervalo')} errorText={form.error('valorIntervalo')}>
            <Input type="number" inputMode="numeric" disabled={!repeats} {...form.text('valorIntervalo')} />
          </FormField>
          <FormField label={t('scheduledMessages.dialog.intervalo')} errorText={form.error('intervalo')}>
            {choice('intervalo', ['1', '2', '3', '4'])}
          </FormField>
        </ColumnLayout>
        <ColumnLayout columns={3}>
          <FormField label={t('scheduledMessages.dialog.openTicket')}>
            <Toggle {...form.toggle('openTicket')}>{t('scheduledMessages.dialog.openTicketToggle')}</Toggle>
          </FormField>
          <FormField label={t('scheduledMessages.dialog.statusTicket')}>
            {choice('statusTicket', ['open', 'pending', 'closed'])}
          </FormField>
          <FormField label={t('scheduledMessages.dialog.assinar')}>
            <Toggle {...form.toggle('assinar')}>{t('scheduledMessages.dialog.assinarToggle')}</Toggle>
          </FormField>
        </ColumnLayout>
        <ColumnLayout columns={3}>
          <FormField label={t('scheduledMessages.dialog.whatsapp')}>
            {picker(
              'whatsappId',
              t('scheduledMessages.dialog.whatsappDefault'),
              connections.status === 'ready' ? connections.data.filter((c) => c.channel === 'whatsapp') : [],
              connections.status === 'loading',
            )}
          </FormField>
          <FormField label={t('scheduledMessages.dialog.queue')}>
            {picker(
              'queueId',
              t('scheduledMessages.dialog.none'),
              queues.status === 'ready' ? queues.data : [],
              queues.status === 'loading',
              !v.openTicket,
            )}
          </FormField>
          <FormField label={t('scheduledMessages.dialog.ticketUser')}>
            {picker(
              'ticketUserId',
              t('scheduledMessages.dialog.none'),
              users.status === 'ready' ? users.data : [],
              users.status === 'loading',
              !v.openTicket,
            )}
          </FormField>
        </ColumnLayout>
        <FormField
          label={t('scheduledMessages.dialog.media')}
          constraintText={t('scheduledMessages.dialog.mediaHint')}
          errorText={form.error('file')}
        >
          <SpaceBetween direction="horizontal" size="s" alignItems="center">
            {record?.mediaName && !v.file && !v.removeMedia && <Box variant="span">{record.mediaName}</Box>}
            {record?.mediaPath && !v.file && (
              <Button variant="inline-link" onClick={() => form.set({ removeMedia: !v.removeMedia })}>
                {v.removeMedia ? t('scheduledMessages.dialog.mediaKeep') : t('scheduledMessages.dialog.mediaRemove')}
              </Button>
            )}
            <FileInput
              accept=".png,.jpg,.jpeg"
              value={v.file ? [v.file] : []}
              onChange={({ detail }) => form.set({ file: detail.value[0] ?? null })}
            >
              {t('scheduledMessages.dialog.mediaChoose')}
            </FileInput>
            {v.file && <Box variant="span">{v.file.name}</Box>}
          </SpaceBetween>
        </FormField>
      </SpaceBetween>
    </Form>
  );
}
