import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Toggle from '@cloudscape-design/components/toggle';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getCampaignSettings, saveCampaignSettings, type CampaignSettings } from '@/api/campaigns';
import { ApiError } from '@/api/api-error';
import { useNotifications } from '@/components/notifications';
import { useErrorText } from '@/hooks/use-error-text';
import { useRequest } from '@/hooks/use-request';

/** Administration §9: the bounds of the fields. */
export const BOUNDS = {
  messageInterval: [0, 120],
  longerIntervalAfter: [0, 60],
  greaterInterval: [0, 180],
  dailyLimit: [1, 100_000],
} as const;
type NumberKey = keyof typeof BOUNDS;
const HOURS = { min: '08:00', max: '19:00' };

interface Draft {
  messageInterval: string;
  longerIntervalAfter: string;
  greaterInterval: string;
  dailyLimit: string;
  startHour: string;
  endHour: string;
  sabado: boolean;
  domingo: boolean;
  variables: { key: string; value: string }[];
}

const draftOf = (s: CampaignSettings): Draft => ({
  messageInterval: String(s.messageInterval),
  longerIntervalAfter: String(s.longerIntervalAfter),
  greaterInterval: String(s.greaterInterval),
  dailyLimit: String(s.dailyLimit),
  startHour: s.startHour,
  endHour: s.endHour,
  sabado: s.sabado,
  domingo: s.domingo,
  variables: s.variables,
});

/** The fields' problems (i18n keys), before anything is sent. */
export const draftProblems = (d: Draft): Partial<Record<string, string>> => {
  const problems: Partial<Record<string, string>> = {};
  for (const key of Object.keys(BOUNDS) as NumberKey[]) {
    const [min, max] = BOUNDS[key];
    const n = Number(d[key]);
    if (d[key].trim() === '' || !Number.isInteger(n) || n < min || n > max)
      problems[key] = 'campaignsConfig.outOfBounds';
  }
  for (const key of ['startHour', 'endHour'] as const) {
    if (!/^\d{2}:\d{2}$/.test(d[key]) || d[key] < HOURS.min || d[key] > HOURS.max)
      problems[key] = 'campaignsConfig.hours';
  }
  if (!problems.startHour && !problems.endHour && d.startHour >= d.endHour)
    problems.endHour = 'campaignsConfig.endAfterStart';
  d.variables.forEach((v, i) => {
    if (!v.key.trim()) problems[`variables.${i}`] = 'campaignsConfig.variableKey';
  });
  return problems;
};

/**
 * /campaigns-config (administration spec "Campaigns": the settings page, §3 setting keys, §9 defaults and
 * bounds; decisions D117): the pacing every automatic send on a connection follows (seconds), the hours
 * and days campaigns may send, our daily limit per connection, and the custom variables the messages use
 * as `{key}`. 'Configurações salvas' after a save.
 */
export function CampaignsConfigPage() {
  const { t } = useTranslation();
  const textOf = useErrorText();
  const notify = useNotifications();
  const loaded = useRequest((signal) => getCampaignSettings({ signal }), []);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  const [serverProblems, setServerProblems] = useState<Record<string, string>>({});

  if (loaded.status === 'loading') {
    return (
      <Box textAlign="center" padding="xl">
        <Spinner size="large" />
      </Box>
    );
  }
  if (loaded.status === 'error') {
    return (
      <Alert type="error" action={<Button onClick={loaded.reload}>{t('common.retry')}</Button>}>
        {textOf(loaded.error)}
      </Alert>
    );
  }
  const d = draft ?? draftOf(loaded.data);
  const problems = draftProblems(d);
  const set = (change: Partial<Draft>) => setDraft({ ...d, ...change });
  const errorOf = (field: string) =>
    tried && problems[field]
      ? t(
          problems[field],
          BOUNDS[field as NumberKey] ? { min: BOUNDS[field as NumberKey][0], max: BOUNDS[field as NumberKey][1] } : {},
        )
      : serverProblems[field];

  const save = async () => {
    setTried(true);
    if (Object.keys(problems).length > 0) return;
    setSaving(true);
    try {
      const saved = await saveCampaignSettings({
        messageInterval: Number(d.messageInterval),
        longerIntervalAfter: Number(d.longerIntervalAfter),
        greaterInterval: Number(d.greaterInterval),
        dailyLimit: Number(d.dailyLimit),
        startHour: d.startHour,
        endHour: d.endHour,
        sabado: d.sabado,
        domingo: d.domingo,
        variables: d.variables.map((v) => ({ key: v.key.trim(), value: v.value })),
      });
      setDraft(draftOf(saved));
      setServerProblems({});
      setTried(false);
      notify.success(t('campaignsConfig.saved'));
    } catch (err) {
      if (err instanceof ApiError && err.fields.length > 0) {
        setServerProblems(
          Object.fromEntries(err.fields.map((f) => [f.field.replace(/^body\.settings\./, ''), f.reason])),
        );
      }
      notify.error(err);
    } finally {
      setSaving(false);
    }
  };

  const numberField = (key: NumberKey) => (
    <FormField
      label={t(`campaignsConfig.${key}`)}
      constraintText={t('campaignsConfig.bounds', { min: BOUNDS[key][0], max: BOUNDS[key][1] })}
      errorText={errorOf(key)}
    >
      <Input type="number" inputMode="numeric" value={d[key]} onChange={({ detail }) => set({ [key]: detail.value })} />
    </FormField>
  );
  const hourField = (key: 'startHour' | 'endHour') => (
    <FormField
      label={t(`campaignsConfig.${key}`)}
      constraintText={t('campaignsConfig.hoursHint')}
      errorText={errorOf(key)}
    >
      <Input type={'time' as 'text'} value={d[key]} onChange={({ detail }) => set({ [key]: detail.value })} />
    </FormField>
  );

  return (
    <ContentLayout header={<Header variant="h1">{t('campaignsConfig.title')}</Header>}>
      <Form
        actions={
          <Button variant="primary" loading={saving} onClick={() => void save()}>
            {t('campaignsConfig.save')}
          </Button>
        }
      >
        <SpaceBetween size="l">
          <Container header={<Header variant="h2">{t('campaignsConfig.pacing')}</Header>}>
            <ColumnLayout columns={4}>
              {numberField('messageInterval')}
              {numberField('longerIntervalAfter')}
              {numberField('greaterInterval')}
              {numberField('dailyLimit')}
            </ColumnLayout>
          </Container>
          <Container header={<Header variant="h2">{t('campaignsConfig.hoursTitle')}</Header>}>
            <ColumnLayout columns={4}>
              {hourField('startHour')}
              {hourField('endHour')}
              <FormField label={t('campaignsConfig.sabado')}>
                <Toggle checked={d.sabado} onChange={({ detail }) => set({ sabado: detail.checked })}>
                  {t('campaignsConfig.allowed')}
                </Toggle>
              </FormField>
              <FormField label={t('campaignsConfig.domingo')}>
                <Toggle checked={d.domingo} onChange={({ detail }) => set({ domingo: detail.checked })}>
                  {t('campaignsConfig.allowed')}
                </Toggle>
              </FormField>
            </ColumnLayout>
          </Container>
          <Container
            header={
              <Header
                variant="h2"
                description={t('campaignsConfig.variablesHint')}
                actions={
                  <Button onClick={() => set({ variables: [...d.variables, { key: '', value: '' }] })}>
                    {t('campaignsConfig.addVariable')}
                  </Button>
                }
              >
                {t('campaignsConfig.variables')}
              </Header>
            }
          >
            <SpaceBetween size="s">
              {d.variables.length === 0 && <Box color="text-status-inactive">{t('campaignsConfig.noVariables')}</Box>}
              {d.variables.map((v, i) => (
                <ColumnLayout columns={3} key={i}>
                  <FormField label={t('campaignsConfig.variableKeyLabel')} errorText={errorOf(`variables.${i}`)}>
                    <Input
                      value={v.key}
                      onChange={({ detail }) =>
                        set({ variables: d.variables.map((x, j) => (j === i ? { ...x, key: detail.value } : x)) })
                      }
                    />
                  </FormField>
                  <FormField label={t('campaignsConfig.variableValue')}>
                    <Input
                      value={v.value}
                      onChange={({ detail }) =>
                        set({ variables: d.variables.map((x, j) => (j === i ? { ...x, value: detail.value } : x)) })
                      }
                    />
                  </FormField>
                  <Box padding={{ top: 'l' }}>
                    <Button
                      variant="icon"
                      iconName="remove"
                      ariaLabel={t('campaignsConfig.removeVariable', { key: v.key })}
                      onClick={() => set({ variables: d.variables.filter((_, j) => j !== i) })}
                    />
                  </Box>
                </ColumnLayout>
              ))}
            </SpaceBetween>
          </Container>
        </SpaceBetween>
      </Form>
    </ContentLayout>
  );
}
