import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import FileInput from '@cloudscape-design/components/file-input';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Multiselect, { type MultiselectProps } from '@cloudscape-design/components/multiselect';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/api/api-error';
import {
  getCertificateStatus,
  listPlatformSettings,
  PAYMENT_CREDENTIALS,
  PAYMENT_PROVIDER_NAMES,
  putPlatformSetting,
  uploadCertificate,
  type CertificateStatus,
  type PaymentProviderName,
  type SettingView,
} from '@/api/payments';
import { useNotifications } from '@/components/notifications';
import { useCurrentUser } from '@/components/shell/shell-context';
import { useRequest } from '@/hooks/use-request';

/** The certificate rule the server applies too (functions/core/settings/payment-certificate.ts). */
const MAX_CERTIFICATE_BYTES = 50 * 1024;

/** One write-only credential: the stored value shows masked; a new one is typed and saved. */
function CredentialField({ setting, onSaved }: { setting: SettingView; onSaved: (view: SettingView) => void }) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const [value, setValue] = useState('');
  const [saving, setSaving] = useState(false);
  const save = async (next: string) => {
    setSaving(true);
    try {
      onSaved(await putPlatformSetting(setting.key, next));
      setValue('');
      notify.success(t('payments.saved'));
    } catch (err) {
      notify.error(err);
    } finally {
      setSaving(false);
    }
  };
  return (
    <FormField
      label={t(`payments.keys.${setting.key}`)}
      description={setting.value ? t('payments.current', { value: setting.value }) : t('payments.notSet')}
      secondaryControl={
        <SpaceBetween direction="horizontal" size="xs">
          <Button disabled={value.trim() === ''} loading={saving} onClick={() => void save(value.trim())}>
            {t('payments.save')}
          </Button>
          {setting.value && (
            <Button variant="link" disabled={saving} onClick={() => void save('')}>
              {t('payments.clear')}
            </Button>
          )}
        </SpaceBetween>
      }
    >
      <Input
        type="password"
        autoComplete={false}
        value={value}
        placeholder={t('payments.newValue')}
        ariaLabel={t(`payments.keys.${setting.key}`)}
        onChange={({ detail }) => setValue(detail.value)}
      />
    </FormField>
  );
}

/** The PIX certificate (core §5): .p12 only, destination certificadoEfi; never shown back, only its state. */
function CertificateUpload({ status, onUploaded }: { status: CertificateStatus | undefined; onUploaded: () => void }) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const send = async () => {
    if (!file) return setProblem(t('payments.certificate.choose'));
    if (!/\.p12$/i.test(file.name)) return setProblem(t('payments.certificate.onlyP12'));
    if (file.size > MAX_CERTIFICATE_BYTES) return setProblem(t('payments.certificate.tooBig'));
    setSending(true);
    setProblem(undefined);
    try {
      const answer = await uploadCertificate(file);
      if (answer.mensagem === 'Arquivo Anexado') notify.success(t('payments.certificate.sent'));
      setFile(null);
      onUploaded();
    } catch (err) {
      if (err instanceof ApiError && err.fields.length > 0) setProblem(err.fields[0]!.reason);
      else notify.error(err);
    } finally {
      setSending(false);
    }
  };
  return (
    <Container header={<Header variant="h2">{t('payments.certificate.header')}</Header>}>
      <SpaceBetween size="s">
        <Box>
          {status?.installed
            ? t('payments.certificate.installed', {
                name: status.fileName,
                date: new Date(status.uploadedAt ?? '').toLocaleString(),
              })
            : t('payments.certificate.missing')}
        </Box>
        <FormField label={t('payments.certificate.destination')}>
          <Input readOnly value="certificadoEfi" ariaLabel={t('payments.certificate.destination')} />
        </FormField>
        <FormField label={t('payments.certificate.file')} errorText={problem}>
          <SpaceBetween direction="horizontal" size="xs" alignItems="center">
            <FileInput
              accept=".p12"
              value={file ? [file] : []}
              onChange={({ detail }) => {
                setFile(detail.value[0] ?? null);
                setProblem(undefined);
              }}
            >
              {t('payments.certificate.pick')}
            </FileInput>
            {file && <Box variant="span">{file.name}</Box>}
            <Button variant="primary" loading={sending} onClick={() => void send()}>
              {t('payments.certificate.upload')}
            </Button>
          </SpaceBetween>
        </FormField>
      </SpaceBetween>
    </Container>
  );
}

/**
 * The super-only "Pagamentos" tab of /settings (core §2, §5; decisions D167–D169): each provider's
 * credentials (write-only, shown masked), the providers the checkout offers, and the PIX certificate.
 */
export function PaymentsSettings() {
  const { t } = useTranslation();
  const notify = useNotifications();
  const isSuper = useCurrentUser().super === true;
  const settings = useRequest(
    (signal) => (isSuper ? listPlatformSettings({ signal }) : Promise.resolve([])),
    [isSuper],
  );
  const certificate = useRequest(
    (signal) => (isSuper ? getCertificateStatus({ signal }) : Promise.resolve([])),
    [isSuper],
  );
  const [saved, setSaved] = useState<Record<string, SettingView>>({});

  if (!isSuper) return <Alert type="error">{t('payments.noPermission')}</Alert>;
  if (settings.status === 'loading') return <Spinner size="large" />;
  if (settings.status === 'error') return <Alert type="error">{t('payments.loadFailed')}</Alert>;

  const byKey = new Map(settings.data.map((s) => [s.key, s]));
  const settingOf = (key: string): SettingView => saved[key] ?? byKey.get(key) ?? { key, value: '' };
  const onSaved = (view: SettingView) => setSaved((s) => ({ ...s, [view.key]: view }));

  const options: MultiselectProps.Option[] = PAYMENT_PROVIDER_NAMES.map((name) => ({
    value: name,
    label: t(`payments.providers.${name}`),
  }));
  const active = settingOf('paymentProviders').value.split(',').filter(Boolean);
  const choose = async (names: string[]) => {
    try {
      onSaved(await putPlatformSetting('paymentProviders', names.join(',')));
      notify.success(t('payments.saved'));
    } catch (err) {
      notify.error(err);
    }
  };

  return (
    <SpaceBetween size="l">
      <Container header={<Header variant="h2">{t('payments.activeHeader')}</Header>}>
        <FormField label={t('payments.active')} description={t('payments.activeHint')}>
          <Multiselect
            selectedOptions={options.filter((o) => active.includes(String(o.value)))}
            options={options}
            placeholder={t('payments.none')}
            onChange={({ detail }) => void choose(detail.selectedOptions.map((o) => String(o.value)))}
          />
        </FormField>
      </Container>
      {PAYMENT_PROVIDER_NAMES.map((name: PaymentProviderName) => (
        <Container key={name} header={<Header variant="h2">{t(`payments.providers.${name}`)}</Header>}>
          <ColumnLayout columns={2}>
            {PAYMENT_CREDENTIALS[name].map((key) => (
              <CredentialField key={key} setting={settingOf(key)} onSaved={onSaved} />
            ))}
          </ColumnLayout>
        </Container>
      ))}
      <CertificateUpload
        status={certificate.status === 'ready' ? certificate.data[0] : undefined}
        onUploaded={certificate.reload}
      />
    </SpaceBetween>
  );
}
