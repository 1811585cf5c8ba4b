import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Alert from '@cloudscape-design/components/alert';
import Tabs from '@cloudscape-design/components/tabs';
import Textarea from '@cloudscape-design/components/textarea';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/api/api-error';
import {
  getCompanySettings,
  updateCompanySchedules,
  updateCompanySetting,
  type CompanySettingsView,
} from '@/api/company-settings';
import type { ScheduleEntry } from '@/api/queues';
import { useNotifications } from '@/components/notifications';
import { ScheduleEditor, sevenDays } from '@/components/schedule-editor';
import { useCurrentUser } from '@/components/shell/shell-context';
import { useErrorText } from '@/hooks/use-error-text';
import { useRequest } from '@/hooks/use-request';
import { AccessDeniedPage } from '@/pages/errors/access-denied-page';
import { HelpsManager } from '@/pages/helps/helps-manager';
import { PlansManager } from '@/pages/settings/plans-manager';
import { isAdmin } from '@/pages/users/user-form';

/** The dropdown settings and their values (functions/core/settings/company-settings.ts COMPANY_SETTING_COLUMNS). */
const ON_OFF = ['enabled', 'disabled'] as const;
const DROPDOWNS: { column: string; values: readonly (string | boolean)[] }[] = [
  { column: 'userRating', values: ON_OFF },
  { column: 'scheduleType', values: ['disabled', 'queue', 'company', 'connection'] },
  { column: 'chatBotType', values: ['text', 'list', 'button'] },
  { column: 'acceptCallWhatsapp', values: ON_OFF },
  { column: 'userRandom', values: ON_OFF },
  { column: 'sendGreetingMessageOneQueues', values: ON_OFF },
  { column: 'sendSignMessage', values: ON_OFF },
  { column: 'sendFarewellWaitingTicket', values: ON_OFF },
  { column: 'sendGreetingAccepted', values: ON_OFF },
  { column: 'sendQueuePosition', values: ON_OFF },
  { column: 'acceptAudioMessageContact', values: ON_OFF },
  { column: 'requiredTag', values: ON_OFF },
  { column: 'sendMsgTransfTicket', values: ON_OFF },
  { column: 'DirectTicketsToWallets', values: [true, false] },
  { column: 'closeTicketOnTransfer', values: [true, false] },
  { column: 'showNotificationPending', values: [true, false] },
  { column: 'enableLGPD', values: ON_OFF },
];
const LGPD_DROPDOWNS: { column: string; values: readonly string[] }[] = [
  { column: 'lgpdDeleteMessage', values: ON_OFF },
  { column: 'lgpdHideNumber', values: ON_OFF },
  { column: 'lgpdConsent', values: ON_OFF },
];

/** Admin spec §5 (core): a switch that sends a text needs the text. */
const MESSAGES: { column: string; when: string; is: string }[] = [
  { column: 'transferMessage', when: 'sendMsgTransfTicket', is: 'enabled' },
  { column: 'greetingAcceptedMessage', when: 'sendGreetingAccepted', is: 'enabled' },
  { column: 'AcceptCallWhatsappMessage', when: 'acceptCallWhatsapp', is: 'disabled' },
  { column: 'sendQueuePositionMessage', when: 'sendQueuePosition', is: 'enabled' },
];

const timeZones = (): string[] => {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf?.('timeZone') ?? ['America/Sao_Paulo', 'UTC'];
};

/** The 400's reason about body.data, if any. */
const dataProblem = (err: unknown): string | undefined =>
  err instanceof ApiError ? err.fields.find((f) => f.field === 'body.data')?.reason : undefined;

function SettingsTabs({ companyId, initial }: { companyId: number; initial: CompanySettingsView }) {
  const { t } = useTranslation();
  const isSuper = useCurrentUser().super === true;
  const notify = useNotifications();
  const [settings, setSettings] = useState<CompanySettingsView>(initial);
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<Record<string, string | undefined>>({});
  const [schedules, setSchedules] = useState<ScheduleEntry[]>(() => sevenDays(initial.schedules));
  const [savingHours, setSavingHours] = useState(false);
  /** A 400's problems with the hours, by `schedules.<day>.<field>`, until the hours change. */
  const [hourProblems, setHourProblems] = useState<Record<string, string>>({});

  const save = async (column: string, data: string | boolean) => {
    const before = settings[column];
    setSettings((s) => ({ ...s, [column]: data }));
    try {
      await updateCompanySetting(column, data);
      setProblems((p) => ({ ...p, [column]: undefined }));
      notify.success(t('settings.saved'));
      return true;
    } catch (err) {
      setSettings((s) => ({ ...s, [column]: before }));
      setProblems((p) => ({ ...p, [column]: dataProblem(err) }));
      notify.error(err);
      return false;
    }
  };

  const dropdown = ({ column, values }: { column: string; values: readonly (string | boolean)[] }) => {
    const options: SelectProps.Option[] = values.map((v) => ({
      value: String(v),
      label: t(`settings.values.${String(v)}`),
    }));
    return (
      <FormField key={column} label={t(`settings.columns.${column}`)} errorText={problems[column]}>
        <Select
          selectedOption={options.find((o) => o.value === String(settings[column])) ?? null}
          options={options}
          onChange={({ detail }) => {
            const value = values.find((v) => String(v) === detail.selectedOption.value);
            if (value !== undefined) void save(column, value);
          }}
        />
      </FormField>
    );
  };

  const textOf = (column: string) => texts[column] ?? String(settings[column] ?? '');
  const textField = (column: string, requiredWhen?: { when: string; is: string }, rows = 3) => {
    const required = requiredWhen !== undefined && settings[requiredWhen.when] === requiredWhen.is;
    const missing = required && textOf(column).trim() === '';
    return (
      <FormField
        key={column}
        label={t(`settings.columns.${column}`)}
        errorText={missing ? t('settings.required') : problems[column]}
      >
        <Textarea
          rows={rows}
          value={textOf(column)}
          onChange={({ detail }) => setTexts((x) => ({ ...x, [column]: detail.value }))}
          onBlur={() => {
            const value = textOf(column);
            if (value === String(settings[column] ?? '') || missing) return;
            void save(column, value);
          }}
        />
      </FormField>
    );
  };

  const zones: SelectProps.Option[] = timeZones().map((z) => ({ value: z, label: z }));
  const zone = String(settings.timezone ?? 'America/Sao_Paulo');
  const lgpdOn = settings.enableLGPD === 'enabled';

  const options = (
    <SpaceBetween size="l">
      <Container header={<Header variant="h2">{t('settings.optionsTitle')}</Header>}>
        <ColumnLayout columns={3}>
          {DROPDOWNS.map(dropdown)}
          <FormField label={t('settings.columns.timezone')} errorText={problems.timezone}>
            <Select
              filteringType="auto"
              selectedOption={zones.find((o) => o.value === zone) ?? { value: zone, label: zone }}
              options={zones}
              onChange={({ detail }) => void save('timezone', detail.selectedOption.value ?? zone)}
            />
          </FormField>
        </ColumnLayout>
      </Container>
      {lgpdOn && (
        <Container header={<Header variant="h2">{t('settings.lgpdTitle')}</Header>}>
          <SpaceBetween size="m">
            <ColumnLayout columns={3}>{LGPD_DROPDOWNS.map(dropdown)}</ColumnLayout>
            {textField('lgpdMessage')}
            <FormField label={t('settings.columns.lgpdLink')} errorText={problems.lgpdLink}>
              <Input
                value={textOf('lgpdLink')}
                onChange={({ detail }) => setTexts((x) => ({ ...x, lgpdLink: detail.value }))}
                onBlur={() => {
                  if (textOf('lgpdLink') !== String(settings.lgpdLink ?? '')) void save('lgpdLink', textOf('lgpdLink'));
                }}
              />
            </FormField>
          </SpaceBetween>
        </Container>
      )}
      <Container header={<Header variant="h2">{t('settings.messagesTitle')}</Header>}>
        <SpaceBetween size="m">{MESSAGES.map(({ column, ...rule }) => textField(column, rule))}</SpaceBetween>
      </Container>
    </SpaceBetween>
  );

  const saveHours = async () => {
    setSavingHours(true);
    try {
      await updateCompanySchedules(companyId, schedules);
      setHourProblems({});
      notify.success(t('settings.schedulesSaved'));
    } catch (err) {
      if (err instanceof ApiError) {
        setHourProblems(
          Object.fromEntries(
            err.fields
              .filter((f) => f.field.startsWith('body.schedules.'))
              .map((f) => [f.field.slice('body.'.length), f.reason]),
          ),
        );
      }
      notify.error(err);
    } finally {
      setSavingHours(false);
    }
  };

  const hours = (
    <Container
      header={
        <Header
          variant="h2"
          actions={
            <Button variant="primary" loading={savingHours} onClick={() => void saveHours()}>
              {t('common.save')}
            </Button>
          }
        >
          {t('settings.tabs.schedules')}
        </Header>
      }
    >
      <ScheduleEditor
        schedules={schedules}
        onChange={(next) => {
          setSchedules(next);
          setHourProblems({});
        }}
        errorOf={(field) => hourProblems[field]}
      />
    </Container>
  );

  return (
    <Tabs
      tabs={[
        { id: 'options', label: t('settings.tabs.options'), content: options },
        ...(settings.scheduleType === 'company'
          ? [{ id: 'schedules', label: t('settings.tabs.schedules'), content: hours }]
          : []),
        // The platform owner's help videos (administration "Help"; decisions D146).
        ...(isSuper ? [{ id: 'helps', label: t('helps.settingsTab'), content: <HelpsManager /> }] : []),
        ...(isSuper ? [{ id: 'plans', label: t('billing.plans.settingsTab'), content: <PlansManager /> }] : []),
        ...(isSuper ? [{ id: 'payments', label: t('payments.settingsTab'), content: <Lazy tab={PaymentsTab} /> }] : []),
        ...(isSuper ? [{ id: 'platform', label: t('platformSettings.tab'), content: <Lazy tab={PlatformTab} /> }] : []),
      ]}
    />
  );
}

function CompanySettingsScreen({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const textOf = useErrorText();
  const request = useRequest((signal) => getCompanySettings(companyId, { signal }), [companyId]);
  return (
    <ContentLayout header={<Header variant="h1">{t('settings.title')}</Header>}>
      {request.status === 'ready' ? (
        <SettingsTabs companyId={companyId} initial={request.data} />
      ) : request.status === 'loading' ? (
        <Spinner size="big" />
      ) : (
        <Alert type="error" action={<Button onClick={request.reload}>{t('common.retry')}</Button>}>
          {textOf(request.error)}
        </Alert>
      )}
    </ContentLayout>
  );
}

/**
 * /settings (core spec §2 "Settings", §3 "Company settings", §5; decisions D90): the options tab — every
 * dropdown setting, saved as soon as it changes ('Configurações salvas'), the company's time zone, the
 * data-protection block while LGPD is on and the custom messages with their required-when rules — and the
 * company's hours when the schedule type is `company`. Admins only; a plain user sees the no-access screen.
 */
export function SettingsPage() {
  const user = useCurrentUser();
  return isAdmin(user) ? <CompanySettingsScreen companyId={user.companyId} /> : <AccessDeniedPage />;
}

/** The owner's Pagamentos (decisions D167–D169) and Plataforma (D170–D172) tabs, loaded only when an owner opens them. */
const PaymentsTab = lazy(() =>
  import('@/pages/settings/payments-settings').then((m) => ({ default: m.PaymentsSettings })),
);
const PlatformTab = lazy(() =>
  import('@/pages/settings/platform-settings-manager').then((m) => ({ default: m.PlatformSettingsManager })),
);
function Lazy({ tab: Tab }: { tab: typeof PaymentsTab }) {
  return (
    <Suspense fallback={<Spinner size="large" />}>
      <Tab />
    </Suspense>
  );
}
