import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import FileInput from '@cloudscape-design/components/file-input';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Tabs from '@cloudscape-design/components/tabs';
import Textarea from '@cloudscape-design/components/textarea';
import Toggle from '@cloudscape-design/components/toggle';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import {
  createCampaign,
  deleteCampaignMedia,
  listAllContactLists,
  updateCampaign,
  uploadCampaignMedia,
  type Campaign,
} from '@/api/campaigns';
import { listConnections } from '@/api/connections';
import { listQueues } from '@/api/queues';
import { listTags } from '@/api/tags';
import { listUsers } from '@/api/users';
import { FormModal, type FormApi } from '@/components/form-modal/form-modal';
import { useRequest } from '@/hooks/use-request';

const MESSAGES = ['message1', 'message2', 'message3', 'message4', 'message5'] as const;
const CONFIRMATIONS = [
  'confirmationMessage1',
  'confirmationMessage2',
  'confirmationMessage3',
  'confirmationMessage4',
  'confirmationMessage5',
] as const;
type MessageField = (typeof MESSAGES)[number] | (typeof CONFIRMATIONS)[number];

/** Administration §5: user search starts after 3 typed characters. */
export const USER_SEARCH_MIN = 3;
export const CAMPAIGN_MEDIA_MAX_BYTES = 4 * 1024 * 1024;

type CampaignValues = Record<MessageField, string> & {
  name: string;
  confirmation: boolean;
  contactListId: string;
  tagListId: string;
  whatsappId: string;
  scheduledAt: string;
  openTicket: boolean;
  statusTicket: string;
  userId: string;
  userName: string;
  queueId: string;
  file: File | null;
  removeMedia: boolean;
};

/** Administration §5: name 2 to 50 and required; a connection; a queue when a user is chosen. */
const campaignSchema = z
  .object({
    name: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, 'campaigns.dialog.required'),
        z.minLength(2, 'campaigns.dialog.tooShort'),
        z.maxLength(50, 'campaigns.dialog.tooLong'),
      ),
    whatsappId: z.string().check(z.minLength(1, 'campaigns.dialog.required')),
    userId: z.string(),
    queueId: z.string(),
    file: z
      .custom<File | null>()
      .check(z.refine((f) => f === null || f.size <= CAMPAIGN_MEDIA_MAX_BYTES, 'campaigns.dialog.mediaTooBig')),
  })
  .check(
    z.refine((v) => v.userId === '' || v.queueId !== '', {
      message: 'campaigns.dialog.queueRequired',
      path: ['queueId'],
    }),
  );

const two = (n: number) => String(n).padStart(2, '0');
/** An ISO instant as the browser's `YYYY-MM-DDTHH:mm` (the datetime field's form). */
export const localInput = (iso: string | null): string => {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
};
/** The datetime field as an instant (the browser's clock; the spec's saved form carries no zone). */
const isoOf = (local: string): string | null => (local ? new Date(local).toISOString() : null);
const idOrNull = (v: string): number | null => (v === '' ? null : Number(v));

/**
 * Add or edit a campaign (administration §2 Campaigns, §3 Campaign, §5): name, confirmation, the audience
 * (a contact list or a tag), the connection, the date, the ticket it opens (openTicket, statusTicket, a user
 * searched from 3 characters, a queue), five message tabs and, with confirmation on, five confirmation
 * tabs; one attachment. Variables {nome}, {email}, {numero} and the settings' own.
 */
export function CampaignDialog({
  record,
  onDismiss,
  onSaved,
}: {
  record: Campaign | undefined;
  onDismiss: () => void;
  onSaved: (saved: Campaign) => void;
}) {
  const { t } = useTranslation();
  const initial: CampaignValues = {
    name: record?.name ?? '',
    confirmation: record?.confirmation ?? false,
    contactListId: record?.contactListId ? String(record.contactListId) : '',
    tagListId: record?.tagListId ? String(record.tagListId) : '',
    whatsappId: record?.whatsappId ? String(record.whatsappId) : '',
    scheduledAt: localInput(record?.scheduledAt ?? null),
    openTicket: (record?.openTicket ?? 'disabled') === 'enabled',
    statusTicket: record?.statusTicket ?? 'pending',
    userId: record?.userId ? String(record.userId) : '',
    userName: '',
    queueId: record?.queueId ? String(record.queueId) : '',
    file: null,
    removeMedia: false,
    ...(Object.fromEntries([...MESSAGES, ...CONFIRMATIONS].map((f) => [f, record?.[f] ?? ''])) as Record<
      MessageField,
      string
    >),
  };
  return (
    <FormModal
      title={record ? t('campaigns.dialog.editTitle') : t('campaigns.dialog.addTitle')}
      size="large"
      initial={initial}
      schema={campaignSchema}
      checkAtOnce={['file']}
      onSubmit={async (_parsed, v) => {
        const input = {
          name: v.name.trim(),
          confirmation: v.confirmation,
          contactListId: idOrNull(v.contactListId),
          tagListId: idOrNull(v.tagListId),
          whatsappId: Number(v.whatsappId),
          scheduledAt: isoOf(v.scheduledAt),
          openTicket: v.openTicket ? ('enabled' as const) : ('disabled' as const),
          statusTicket: v.statusTicket as 'open' | 'pending' | 'closed',
          userId: v.openTicket ? idOrNull(v.userId) : null,
          queueId: v.openTicket ? idOrNull(v.queueId) : null,
          ...Object.fromEntries([...MESSAGES, ...CONFIRMATIONS].map((f) => [f, v[f]])),
        };
        let saved = record ? await updateCampaign(record.id, input) : await createCampaign(input);
        if (v.file) saved = await uploadCampaignMedia(saved.id, v.file);
        else if (v.removeMedia && saved.mediaPath) saved = await deleteCampaignMedia(saved.id);
        return saved;
      }}
      savedText={t('campaigns.dialog.saved')}
      onSaved={onSaved}
      onDismiss={onDismiss}
      submitText={record ? t('campaigns.dialog.save') : t('campaigns.dialog.add')}
      cancelText={t('campaigns.dialog.cancel')}
    >
      {(form) => <CampaignFields form={form} record={record} />}
    </FormModal>
  );
}

function UserField({ form }: { form: FormApi<CampaignValues> }) {
  const { t } = useTranslation();
  const [options, setOptions] = useState<{ value: string; label: string }[]>([]);
  const [typed, setTyped] = useState('');
  const [loading, setLoading] = useState(false);
  const load = async (text: string) => {
    setTyped(text);
    if (text.trim().length < USER_SEARCH_MIN) {
      setOptions([]);
      return;
    }
    setLoading(true);
    try {
      const page = await listUsers({ searchParam: text.trim() });
      setOptions(page.users.map((u) => ({ value: String(u.id), label: u.name })));
    } catch {
      setOptions([]);
    } finally {
      setLoading(false);
    }
  };
  const { userId, userName } = form.values;
  return (
    <FormField label={t('campaigns.dialog.user')} errorText={form.error('userId')}>
      <Select
        disabled={!form.values.openTicket}
        selectedOption={userId === '' ? null : { value: userId, label: userName || `#${userId}` }}
        options={[{ value: '', label: t('campaigns.dialog.noUser') }, ...options]}
        filteringType="manual"
        statusType={loading ? 'loading' : 'finished'}
        loadingText={t('campaigns.dialog.userLoading')}
        placeholder={t('campaigns.dialog.userPlaceholder')}
        filteringPlaceholder={t('campaigns.dialog.userSearch')}
        empty={typed.trim().length < USER_SEARCH_MIN ? t('campaigns.dialog.userMin') : t('campaigns.dialog.userEmpty')}
        onLoadItems={({ detail }) => void load(detail.filteringText)}
        onChange={({ detail }) =>
          form.set({ userId: detail.selectedOption.value ?? '', userName: detail.selectedOption.label ?? '' })
        }
      />
    </FormField>
  );
}

function CampaignFields({ form, record }: { form: FormApi<CampaignValues>; record: Campaign | undefined }) {
  const { t } = useTranslation();
  const v = form.values;
  const choices = useRequest(async (signal) => {
    const [lists, tags, connections, queues] = await Promise.all([
      listAllContactLists({ signal }),
      listTags({}, { signal }),
      listConnections({ signal }),
      listQueues({ signal }),
    ]);
    return { lists, tags, connections, queues };
  }, []);
  const data = choices.status === 'ready' ? choices.data : null;
  const select = (
    field: 'contactListId' | 'tagListId' | 'whatsappId' | 'queueId' | 'statusTicket',
    options: { value: string; label: string }[],
    extra: { disabled?: boolean; none?: string } = {},
  ) => {
    const all = extra.none !== undefined ? [{ value: '', label: extra.none }, ...options] : options;
    return (
      <Select
        disabled={extra.disabled ?? false}
        statusType={choices.status === 'loading' ? 'loading' : 'finished'}
        loadingText={t('campaigns.dialog.loading')}
        selectedOption={all.find((o) => o.value === v[field]) ?? null}
        placeholder={t('campaigns.dialog.choose')}
        options={all}
        onChange={({ detail }) => form.set({ [field]: detail.selectedOption.value ?? '' })}
      />
    );
  };
  const tabsOf = (fields: readonly MessageField[], label: string) =>
    fields.map((field, i) => ({
      id: field,
      label: `${label} ${i + 1}`,
      content: (
        <FormField
          label={`${label} ${i + 1}`}
          description={t('campaigns.dialog.variables')}
          errorText={form.error(field)}
        >
          <Textarea rows={5} {...form.text(field)} />
        </FormField>
      ),
    }));
  return (
    <Form>
      <SpaceBetween size="m">
        <ColumnLayout columns={2}>
          <FormField label={t('campaigns.dialog.name')} errorText={form.error('name')}>
            <Input {...form.text('name')} />
          </FormField>
          <FormField label={t('campaigns.dialog.confirmation')}>
            <Toggle {...form.toggle('confirmation')}>{t('campaigns.dialog.confirmationToggle')}</Toggle>
          </FormField>
        </ColumnLayout>
        <ColumnLayout columns={3}>
          <FormField label={t('campaigns.dialog.contactList')} errorText={form.error('contactListId')}>
            {select(
              'contactListId',
              (data?.lists ?? []).map((l) => ({ value: String(l.id), label: l.name })),
              { none: t('campaigns.none') },
            )}
          </FormField>
          <FormField label={t('campaigns.dialog.tag')} errorText={form.error('tagListId')}>
            {select(
              'tagListId',
              (data?.tags ?? []).map((g) => ({ value: String(g.id), label: g.name })),
              { none: t('campaigns.none') },
            )}
          </FormField>
          <FormField label={t('campaigns.dialog.whatsapp')} errorText={form.error('whatsappId')}>
            {select(
              'whatsappId',
              (data?.connections ?? []).map((c) => ({ value: String(c.id), label: `${c.name} (${c.status})` })),
            )}
          </FormField>
        </ColumnLayout>
        <ColumnLayout columns={2}>
          <FormField
            label={t('campaigns.dialog.scheduledAt')}
            description={t('campaigns.dialog.scheduledAtHint')}
            errorText={form.error('scheduledAt')}
          >
            <Input type={'datetime-local' as 'text'} {...form.text('scheduledAt')} />
          </FormField>
          <FormField label={t('campaigns.dialog.openTicket')}>
            <Toggle {...form.toggle('openTicket')}>{t('campaigns.dialog.openTicketToggle')}</Toggle>
          </FormField>
        </ColumnLayout>
        <ColumnLayout columns={3}>
          <UserField form={form} />
          <FormField label={t('campaigns.dialog.queue')} errorText={form.error('queueId')}>
            {select(
              'queueId',
              (data?.queues ?? []).map((q) => ({ value: String(q.id), label: q.name })),
              { disabled: !v.openTicket, none: t('campaigns.none') },
            )}
          </FormField>
          <FormField label={t('campaigns.dialog.statusTicket')}>
            {select(
              'statusTicket',
              ['open', 'pending', 'closed'].map((s) => ({ value: s, label: t(`campaigns.statusTicket.${s}`) })),
              { disabled: !v.openTicket },
            )}
          </FormField>
        </ColumnLayout>
        <Tabs tabs={tabsOf(MESSAGES, t('campaigns.dialog.message'))} />
        {v.confirmation && <Tabs tabs={tabsOf(CONFIRMATIONS, t('campaigns.dialog.confirmationMessage'))} />}
        <FormField
          label={t('campaigns.dialog.media')}
          constraintText={t('campaigns.dialog.mediaHint')}
          errorText={form.error('file')}
        >
          <SpaceBetween direction="horizontal" size="s" alignItems="center">
            {record?.mediaName && !v.file && !v.removeMedia && <Box variant="span">{record.mediaName}</Box>}
            {record?.mediaPath && !v.file && (
              <Button variant="inline-link" onClick={() => form.set({ removeMedia: !v.removeMedia })}>
                {v.removeMedia ? t('campaigns.dialog.mediaKeep') : t('campaigns.dialog.mediaRemove')}
              </Button>
            )}
            <FileInput
              value={v.file ? [v.file] : []}
              onChange={({ detail }) => form.set({ file: detail.value[0] ?? null })}
            >
              {t('campaigns.dialog.mediaChoose')}
            </FileInput>
            {v.file && <Box variant="span">{v.file.name}</Box>}
          </SpaceBetween>
        </FormField>
      </SpaceBetween>
    </Form>
  );
}
