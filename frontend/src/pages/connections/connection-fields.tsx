import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import DatePicker from '@cloudscape-design/components/date-picker';
import FileInput from '@cloudscape-design/components/file-input';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Link from '@cloudscape-design/components/link';
import Multiselect from '@cloudscape-design/components/multiselect';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import Toggle from '@cloudscape-design/components/toggle';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Connection } from '@/api/connections';
import { listPrompts, listQueueIntegrations } from '@/api/integrations';
import { listAllFlows, type Flow } from '@/api/flows';
import { ScheduleEditor } from '@/components/schedule-editor';
import type { ConnectionFormValues, DateField, FormErrors, NumberField } from './connection-form';

/**
 * The tabs of the connection dialog (core spec §2 Connections, §3 Connection fields). Each tab is a plain
 * component over the form's values; the dialog owns the state, the rules and the save.
 */
export interface TabProps {
  values: ConnectionFormValues;
  onChange: (change: Partial<ConnectionFormValues>) => void;
  /** Translated problem by field (`schedules.<i>.<field>` for schedule times). */
  errors: FormErrors;
}

type StringField = {
  [K in keyof ConnectionFormValues]: ConnectionFormValues[K] extends string ? K : never;
}[keyof ConnectionFormValues];

function TextField({
  field,
  label,
  description,
  values,
  onChange,
  errors,
}: TabProps & {
  field: StringField;
  label: string;
  description?: string;
}) {
  return (
    <FormField label={label} description={description} errorText={errors[field]}>
      <Input
        value={values[field]}
        autoComplete="off"
        onChange={({ detail }) => onChange({ [field]: detail.value } as Partial<ConnectionFormValues>)}
      />
    </FormField>
  );
}

function MessageField({
  field,
  label,
  description,
  values,
  onChange,
  errors,
}: TabProps & {
  field: StringField;
  label: string;
  description?: string;
}) {
  return (
    <FormField label={label} description={description} errorText={errors[field]} stretch>
      <Textarea
        rows={3}
        value={values[field]}
        onChange={({ detail }) => onChange({ [field]: detail.value } as Partial<ConnectionFormValues>)}
      />
    </FormField>
  );
}

function MinutesField({ field, label, values, onChange, errors }: TabProps & { field: NumberField; label: string }) {
  const { t } = useTranslation();
  return (
    <FormField label={label} constraintText={t('connections.dialog.minutesHint')} errorText={errors[field]}>
      <Input
        type="number"
        inputMode="numeric"
        value={values[field]}
        onChange={({ detail }) => onChange({ [field]: detail.value } as Partial<ConnectionFormValues>)}
      />
    </FormField>
  );
}

function CountField({ field, label, values, onChange, errors }: TabProps & { field: NumberField; label: string }) {
  return (
    <FormField label={label} errorText={errors[field]}>
      <Input
        type="number"
        inputMode="numeric"
        value={values[field]}
        onChange={({ detail }) => onChange({ [field]: detail.value } as Partial<ConnectionFormValues>)}
      />
    </FormField>
  );
}

function DateInput({ field, label, values, onChange, errors }: TabProps & { field: DateField; label: string }) {
  const { t } = useTranslation();
  return (
    <FormField label={label} errorText={errors[field]}>
      <DatePicker
        value={values[field]}
        placeholder={t('connections.dialog.datePlaceholder')}
        openCalendarAriaLabel={(date) => t('connections.dialog.openCalendar', { date: date ?? '' })}
        onChange={({ detail }) => onChange({ [field]: detail.value } as Partial<ConnectionFormValues>)}
      />
    </FormField>
  );
}

type BooleanField = {
  [K in keyof ConnectionFormValues]: ConnectionFormValues[K] extends boolean ? K : never;
}[keyof ConnectionFormValues];

function Switch({
  field,
  label,
  description,
  values,
  onChange,
}: Omit<TabProps, 'errors'> & {
  field: BooleanField;
  label: string;
  description?: string;
}) {
  return (
    <Toggle
      checked={values[field]}
      description={description}
      onChange={({ detail }) => onChange({ [field]: detail.checked } as Partial<ConnectionFormValues>)}
    >
      {label}
    </Toggle>
  );
}

type ReferenceField = 'integrationId' | 'promptId' | 'flowIdWelcome' | 'flowIdNotPhrase';

/**
 * A reference to a record of an area that has no list API yet (integrations, prompts, flows; decisions
 * D98): the select shows the current choice and stays disabled, saying where the choices will come from.
 */
function PendingReference({
  field,
  label,
  hint,
  values,
  errors,
}: Omit<TabProps, 'onChange'> & {
  field: ReferenceField;
  label: string;
  hint: string;
}) {
  const { t } = useTranslation();
  const id = values[field];
  const none: SelectProps.Option = { value: '', label: t('connections.dialog.none') };
  const current: SelectProps.Option = id === null ? none : { value: String(id), label: `#${id}` };
  return (
    <FormField label={label} constraintText={hint} errorText={errors[field]}>
      <Select disabled selectedOption={current} options={[none, current]} onChange={() => undefined} />
    </FormField>
  );
}

/**
 * The connection's welcome and default flows (decisions D140): a select of the company's flows, or none.
 * Flows are listed for admins only; for anyone else (a user with allowConnections) the field stays as it
 * is, disabled, like a reference whose list is not there.
 */
function FlowReference({
  field,
  label,
  values,
  errors,
  onChange,
  flows,
}: TabProps & { field: 'flowIdWelcome' | 'flowIdNotPhrase'; label: string; flows: Flow[] | null }) {
  const { t } = useTranslation();
  if (flows === null) {
    return (
      <PendingReference field={field} label={label} hint={t('flows.connectionHint')} values={values} errors={errors} />
    );
  }
  const none: SelectProps.Option = { value: '', label: t('connections.dialog.none') };
  const options: SelectProps.Option[] = [
    none,
    ...flows.map((f) => ({
      value: String(f.id),
      label: f.name,
      ...(f.active ? {} : { description: t('flows.inactive') }),
    })),
  ];
  const id = values[field];
  const selected =
    id === null ? none : (options.find((o) => o.value === String(id)) ?? { value: String(id), label: `#${id}` });
  return (
    <FormField label={label} constraintText={t('flows.connectionHint')} errorText={errors[field]}>
      <Select
        selectedOption={selected}
        options={options}
        filteringType="auto"
        onChange={({ detail }) =>
          onChange({ [field]: detail.selectedOption.value ? Number(detail.selectedOption.value) : null })
        }
      />
    </FormField>
  );
}

/** The company's flows for the selects; null while loading or when the caller may not list them. */
function useCompanyFlows(): Flow[] | null {
  const [flows, setFlows] = useState<Flow[] | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    listAllFlows({ signal: abort.signal }).then(setFlows, () => setFlows(null));
    return () => abort.abort();
  }, []);
  return flows;
}

// ---------------------------------------------------------------------------------------------------------

export function GeneralTab({
  connection,
  creating,
  importDropsSession,
  ...props
}: TabProps & { connection: Connection | undefined; creating: boolean; importDropsSession: boolean }) {
  const { t } = useTranslation();
  const { values, onChange } = props;
  return (
    <SpaceBetween size="m">
      <ColumnLayout columns={2}>
        <TextField {...props} field="name" label={t('connections.dialog.name')} />
      </ColumnLayout>
      <ColumnLayout columns={3}>
        <Switch {...props} field="isDefault" label={t('connections.dialog.isDefault')} />
        <Switch {...props} field="allowGroup" label={t('connections.dialog.allowGroup')} />
        <Toggle
          checked={values.groupAsTicket === 'enabled'}
          onChange={({ detail }) => onChange({ groupAsTicket: detail.checked ? 'enabled' : 'disabled' })}
        >
          {t('connections.dialog.groupAsTicket')}
        </Toggle>
      </ColumnLayout>
      {!creating && connection?.token && (
        <FormField label={t('connections.dialog.token')} description={t('connections.dialog.tokenHint')}>
          <Input value={connection.token} readOnly />
        </FormField>
      )}
      <Box variant="h4">{t('connections.dialog.importTitle')}</Box>
      {importDropsSession && <Alert type="warning">{t('connections.dialog.importDropsSession')}</Alert>}
      <ColumnLayout columns={2}>
        <DateInput {...props} field="importOldMessages" label={t('connections.dialog.importOldMessages')} />
        <DateInput {...props} field="importRecentMessages" label={t('connections.dialog.importRecentMessages')} />
        <Switch {...props} field="importOldMessagesGroups" label={t('connections.dialog.importOldMessagesGroups')} />
        <Switch
          {...props}
          field="closedTicketsPostImported"
          label={t('connections.dialog.closedTicketsPostImported')}
        />
      </ColumnLayout>
    </SpaceBetween>
  );
}

/**
 * The connection's queue integration or AI prompt (decisions D162, D164): a select of the company's, or
 * none. When the list cannot be read (no plan flag, or not an admin) the field stays as stored, disabled.
 */
function ChoiceReference({
  field,
  label,
  hint,
  choices,
  ...props
}: TabProps & {
  field: 'integrationId' | 'promptId';
  label: string;
  hint: string;
  choices: { id: number; name: string }[] | null;
}) {
  const { t } = useTranslation();
  const { values, errors, onChange } = props;
  if (choices === null)
    return <PendingReference field={field} label={label} hint={hint} values={values} errors={errors} />;
  const none: SelectProps.Option = { value: '', label: t('connections.dialog.none') };
  const options: SelectProps.Option[] = [none, ...choices.map((c) => ({ value: String(c.id), label: c.name }))];
  const id = values[field];
  const selected =
    id === null ? none : (options.find((o) => o.value === String(id)) ?? { value: String(id), label: `#${id}` });
  return (
    <FormField label={label} errorText={errors[field]}>
      <Select
        selectedOption={selected}
        options={options}
        filteringType="auto"
        onChange={({ detail }) =>
          onChange({ [field]: detail.selectedOption.value ? Number(detail.selectedOption.value) : null })
        }
      />
    </FormField>
  );
}

/** The company's integrations and prompts for the selects; null while loading or when they cannot be listed. */
function useChoices(load: (signal: AbortSignal) => Promise<{ id: number; name: string }[]>) {
  const [choices, setChoices] = useState<{ id: number; name: string }[] | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    load(abort.signal).then(setChoices, () => setChoices(null));
    return () => abort.abort();
  }, []);
  return choices;
}

export function IntegrationsTab(props: TabProps) {
  const { t } = useTranslation();
  const flows = useCompanyFlows();
  const integrations = useChoices(async (signal) => (await listQueueIntegrations({}, { signal })).queueIntegrations);
  const prompts = useChoices(async (signal) => (await listPrompts({}, { signal })).prompts);
  return (
    <ColumnLayout columns={2}>
      <ChoiceReference
        {...props}
        choices={integrations}
        field="integrationId"
        label={t('connections.dialog.integrationId')}
        hint={t('connections.dialog.integrationsPending')}
      />
      <ChoiceReference
        {...props}
        choices={prompts}
        field="promptId"
        label={t('connections.dialog.promptId')}
        hint={t('connections.dialog.promptsPending')}
      />
      <FlowReference {...props} flows={flows} field="flowIdWelcome" label={t('connections.dialog.flowIdWelcome')} />
      <FlowReference {...props} flows={flows} field="flowIdNotPhrase" label={t('connections.dialog.flowIdNotPhrase')} />
    </ColumnLayout>
  );
}

/** The greeting attachment: the current one (open or mark for removal) and a new file to upload on save. */
export interface GreetingMediaProps {
  currentUrl: string | null;
  file: File | null;
  remove: boolean;
  errorText: string | undefined;
  onFile: (file: File | null) => void;
  onRemove: (remove: boolean) => void;
}

const fileNameOf = (url: string) => decodeURIComponent(url.split('/').pop() ?? url);

function GreetingMedia({ currentUrl, file, remove, errorText, onFile, onRemove }: GreetingMediaProps) {
  const { t } = useTranslation();
  return (
    <FormField
      label={t('connections.dialog.greetingMedia')}
      constraintText={t('connections.dialog.greetingMediaHint')}
      errorText={errorText}
    >
      <SpaceBetween direction="horizontal" size="s" alignItems="center">
        {currentUrl && !file && !remove && (
          <Link href={currentUrl} external>
            {fileNameOf(currentUrl)}
          </Link>
        )}
        {currentUrl && !file && (
          <Button variant="inline-link" onClick={() => onRemove(!remove)}>
            {remove ? t('connections.dialog.greetingMediaKeep') : t('connections.dialog.greetingMediaRemove')}
          </Button>
        )}
        <FileInput value={file ? [file] : []} onChange={({ detail }) => onFile(detail.value[0] ?? null)}>
          {t('connections.dialog.greetingMediaChoose')}
        </FileInput>
        {file && <Box variant="span">{file.name}</Box>}
        {file && (
          <Button variant="inline-link" onClick={() => onFile(null)}>
            {t('connections.dialog.greetingMediaDiscard')}
          </Button>
        )}
      </SpaceBetween>
    </FormField>
  );
}

export function MessagesTab({ media, ...props }: TabProps & { media: GreetingMediaProps }) {
  const { t } = useTranslation();
  return (
    <SpaceBetween size="m">
      <MessageField {...props} field="greetingMessage" label={t('connections.dialog.greetingMessage')} />
      <GreetingMedia {...media} />
      <MessageField {...props} field="complationMessage" label={t('connections.dialog.complationMessage')} />
      <MessageField {...props} field="outOfHoursMessage" label={t('connections.dialog.outOfHoursMessage')} />
      <Box variant="h4">{t('connections.dialog.vacationTitle')}</Box>
      <ColumnLayout columns={2}>
        <DateInput {...props} field="collectiveVacationStart" label={t('connections.dialog.vacationStart')} />
        <DateInput {...props} field="collectiveVacationEnd" label={t('connections.dialog.vacationEnd')} />
      </ColumnLayout>
      <MessageField {...props} field="collectiveVacationMessage" label={t('connections.dialog.vacationMessage')} />
    </SpaceBetween>
  );
}

/** A queue the connection can offer: the company's queues (GET /queue). */
export interface QueueChoice {
  id: number;
  name: string;
  color: string;
}

/**
 * The connection's queues in the order the bot's menu numbers them (decisions D91, D98): ticked in the
 * multiselect (a new one goes last), reordered with the arrows. A stored queue the list no longer has
 * shows as `#id` so it can still be removed.
 */
function QueuesField({ values, onChange, errors, queues }: TabProps & { queues: readonly QueueChoice[] }) {
  const { t } = useTranslation();
  const nameOf = (id: number) => queues.find((q) => q.id === id)?.name ?? `#${id}`;
  const optionOf = (id: number): SelectProps.Option => ({ value: String(id), label: nameOf(id) });
  const ids = values.queueIds;
  const move = (index: number, by: -1 | 1) => {
    const next = [...ids];
    [next[index], next[index + by]] = [next[index + by]!, next[index]!];
    onChange({ queueIds: next });
  };
  const greetingNeeded = ids.length > 1 && values.greetingMessage.trim() === '';
  return (
    <SpaceBetween size="xs">
      <FormField
        label={t('connections.dialog.queues')}
        description={t('connections.dialog.queuesHint')}
        constraintText={greetingNeeded ? undefined : t('connections.dialog.queuesGreeting')}
        warningText={greetingNeeded ? t('connections.dialog.queuesGreeting') : undefined}
        errorText={errors.queueIds}
      >
        <Multiselect
          selectedOptions={ids.map(optionOf)}
          options={queues.map((q) => ({ value: String(q.id), label: q.name }))}
          placeholder={t('connections.dialog.chooseQueues')}
          empty={t('connections.dialog.noQueues')}
          hideTokens
          onChange={({ detail }) => {
            const chosen = new Set(detail.selectedOptions.map((o) => Number(o.value)));
            const kept = ids.filter((id) => chosen.has(id));
            const added = [...chosen].filter((id) => !ids.includes(id));
            onChange({ queueIds: [...kept, ...added] });
          }}
        />
      </FormField>
      {ids.length > 0 && (
        <ol aria-label={t('connections.dialog.queueOrder')} style={{ margin: 0, paddingLeft: '1.5em' }}>
          {ids.map((id, index) => (
            <li key={id}>
              <SpaceBetween direction="horizontal" size="xxs" alignItems="center">
                <Box variant="span">{nameOf(id)}</Box>
                <Button
                  variant="icon"
                  iconName="angle-up"
                  disabled={index === 0}
                  ariaLabel={t('connections.dialog.moveUp', { name: nameOf(id) })}
                  onClick={() => move(index, -1)}
                />
                <Button
                  variant="icon"
                  iconName="angle-down"
                  disabled={index === ids.length - 1}
                  ariaLabel={t('connections.dialog.moveDown', { name: nameOf(id) })}
                  onClick={() => move(index, 1)}
                />
                <Button
                  variant="icon"
                  iconName="close"
                  ariaLabel={t('connections.dialog.removeQueue', { name: nameOf(id) })}
                  onClick={() => onChange({ queueIds: ids.filter((other) => other !== id) })}
                />
              </SpaceBetween>
            </li>
          ))}
        </ol>
      )}
    </SpaceBetween>
  );
}

/** The redirect queue (sendIdQueue): none or one of the company's queues. */
function RedirectQueueField({ values, onChange, errors, queues }: TabProps & { queues: readonly QueueChoice[] }) {
  const { t } = useTranslation();
  const none: SelectProps.Option = { value: '', label: t('connections.dialog.none') };
  const options = [none, ...queues.map((q) => ({ value: String(q.id), label: q.name }))];
  const id = values.sendIdQueue;
  const selected =
    id === null ? none : (options.find((o) => o.value === String(id)) ?? { value: String(id), label: `#${id}` });
  return (
    <FormField label={t('connections.dialog.sendIdQueue')} errorText={errors.sendIdQueue}>
      <Select
        selectedOption={selected}
        options={options}
        onChange={({ detail }) =>
          onChange({ sendIdQueue: detail.selectedOption.value ? Number(detail.selectedOption.value) : null })
        }
      />
    </FormField>
  );
}

export function ChatbotTab({ queues, ...props }: TabProps & { queues: readonly QueueChoice[] }) {
  const { t } = useTranslation();
  const { values, onChange } = props;
  const closeOptions: SelectProps.Option[] = [
    { value: '0', label: t('connections.dialog.whenExpires0') },
    { value: '1', label: t('connections.dialog.whenExpires1') },
  ];
  return (
    <SpaceBetween size="m">
      <QueuesField {...props} queues={queues} />
      <ColumnLayout columns={2}>
        <RedirectQueueField {...props} queues={queues} />
        <MinutesField {...props} field="timeSendQueue" label={t('connections.dialog.timeSendQueue')} />
        <CountField {...props} field="maxUseBotQueues" label={t('connections.dialog.maxUseBotQueues')} />
        <MinutesField {...props} field="timeUseBotQueues" label={t('connections.dialog.timeUseBotQueues')} />
        <MinutesField {...props} field="expiresTicket" label={t('connections.dialog.expiresTicket')} />
        <FormField label={t('connections.dialog.whenExpiresTicket')}>
          <Select
            selectedOption={closeOptions.find((o) => o.value === values.whenExpiresTicket) ?? null}
            options={closeOptions}
            onChange={({ detail }) => onChange({ whenExpiresTicket: detail.selectedOption.value === '1' ? '1' : '0' })}
          />
        </FormField>
      </ColumnLayout>
      <MessageField {...props} field="expiresInactiveMessage" label={t('connections.dialog.expiresInactiveMessage')} />
      <ColumnLayout columns={2}>
        <MinutesField {...props} field="timeInactiveMessage" label={t('connections.dialog.timeInactiveMessage')} />
        <MinutesField {...props} field="timeCreateNewTicket" label={t('connections.dialog.timeCreateNewTicket')} />
      </ColumnLayout>
      <MessageField {...props} field="inactiveMessage" label={t('connections.dialog.inactiveMessage')} />
    </SpaceBetween>
  );
}

export function AssessmentsTab({ npsInUse, ...props }: TabProps & { npsInUse: boolean }) {
  const { t } = useTranslation();
  return (
    <SpaceBetween size="m">
      {npsInUse && <Alert type="info">{t('connections.dialog.npsInUse')}</Alert>}
      <MessageField {...props} field="ratingMessage" label={t('connections.dialog.ratingMessage')} />
      <ColumnLayout columns={2}>
        <CountField {...props} field="maxUseBotQueuesNPS" label={t('connections.dialog.maxUseBotQueuesNPS')} />
        <MinutesField {...props} field="expiresTicketNPS" label={t('connections.dialog.expiresTicketNPS')} />
      </ColumnLayout>
    </SpaceBetween>
  );
}

/**
 * Service hours per weekday, two shifts (core spec §3; shown only when the schedule type is per
 * connection): the shared schedule editor, with the form's and the server's problems under their times.
 */
export function SchedulesTab({ values, onChange, errors }: TabProps) {
  return (
    <ScheduleEditor
      schedules={values.schedules}
      onChange={(schedules) => onChange({ schedules })}
      errorOf={(field) => errors[field]}
    />
  );
}
