import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import FileInput from '@cloudscape-design/components/file-input';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/api/api-error';
import {
  listPlatformSettings,
  savePlatformSetting,
  uploadWhitelabelLogo,
  type PlatformSetting,
} from '@/api/platform-settings';
import { useNotifications } from '@/components/notifications';
import { useRequest } from '@/hooks/use-request';

/** The owner's platform settings, by section (core §2 Settings, super tabs; §3 Global settings). */
const SECTIONS = [
  { id: 'access', keys: ['userCreation', 'downloadLimit'] },
  { id: 'brand', keys: ['appName', 'primaryColorLight', 'primaryColorDark'] },
  { id: 'ai', keys: ['openAiKey'] },
] as const;

const DOWNLOAD_LIMITS = ['32', '64', '128', '256', '512', '1024', '2048'];
const SECRET_KEYS: ReadonlySet<string> = new Set(SECTIONS[2].keys);

/** The whitelabel logos (decisions D171): the setting each upload sets, and what the input accepts. */
const LOGOS = [
  { mode: 'Light', key: 'appLogoLight', accept: 'image/png,image/jpeg,image/webp' },
  { mode: 'Dark', key: 'appLogoDark', accept: 'image/png,image/jpeg,image/webp' },
  { mode: 'Favicon', key: 'appLogoFavicon', accept: 'image/png,image/x-icon,.ico' },
] as const;

/** A stored logo's address (a media key is served under /media). */
const logoAddress = (value: string) => `/media/${value.split('/').map(encodeURIComponent).join('/')}`;

type Values = Record<string, string>;

function PlatformSettingsForm({ initial }: { initial: PlatformSetting[] }) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const [stored, setStored] = useState<Values>(() => Object.fromEntries(initial.map((s) => [s.key, s.value])));
  // What the owner typed; a secret's field starts empty (its stored value only shows masked, as a hint).
  const [edits, setEdits] = useState<Values>({});
  const [errors, setErrors] = useState<Values>({});
  const [saving, setSaving] = useState(false);
  const valueOf = (key: string) => edits[key] ?? (SECRET_KEYS.has(key) ? '' : (stored[key] ?? ''));
  const edit = (key: string, value: string) => setEdits((e) => ({ ...e, [key]: value }));

  const save = async () => {
    const changed = Object.entries(edits).filter(([key, value]) =>
      SECRET_KEYS.has(key) ? value !== '' : value !== (stored[key] ?? ''),
    );
    setSaving(true);
    const failed: Values = {};
    for (const [key, value] of changed) {
      try {
        const saved = await savePlatformSetting(key, value);
        setStored((s) => ({ ...s, [key]: saved.value }));
        setEdits(({ [key]: _done, ...rest }) => rest);
      } catch (err) {
        const reason = err instanceof ApiError ? err.fields?.[0]?.reason : undefined;
        failed[key] = reason ?? t('platformSettings.saveFailed');
      }
    }
    setErrors(failed);
    setSaving(false);
    if (Object.keys(failed).length === 0) notify.success(t('platformSettings.saved'));
  };

  const field = (key: string) => {
    const label = t(`platformSettings.fields.${key}`);
    if (key === 'userCreation') {
      const options = ['enabled', 'disabled'].map((v) => ({
        value: v,
        label: t(`platformSettings.userCreation.${v}`),
      }));
      return (
        <FormField key={key} label={label} errorText={errors[key]}>
          <Select
            selectedOption={options.find((o) => o.value === valueOf(key)) ?? options[0]!}
            options={options}
            onChange={({ detail }) => edit(key, detail.selectedOption.value ?? 'enabled')}
          />
        </FormField>
      );
    }
    if (key === 'downloadLimit') {
      const options = DOWNLOAD_LIMITS.map((v) => ({ value: v, label: `${v} MB` }));
      return (
        <FormField key={key} label={label} errorText={errors[key]}>
          <Select
            selectedOption={options.find((o) => o.value === valueOf(key)) ?? null}
            options={options}
            onChange={({ detail }) => edit(key, detail.selectedOption.value ?? '64')}
          />
        </FormField>
      );
    }
    const secret = SECRET_KEYS.has(key);
    return (
      <FormField
        key={key}
        label={label}
        errorText={errors[key]}
        description={
          secret
            ? stored[key]
              ? t('platformSettings.secretSet', { masked: stored[key] })
              : t('platformSettings.secretUnset')
            : undefined
        }
      >
        <Input
          type={secret ? 'password' : 'text'}
          value={valueOf(key)}
          onChange={({ detail }) => edit(key, detail.value)}
        />
      </FormField>
    );
  };

  const [uploading, setUploading] = useState<string | null>(null);
  const upload = async (mode: string, key: string, file: File | undefined) => {
    if (!file) return;
    setUploading(key);
    try {
      const saved = await uploadWhitelabelLogo(mode, file);
      setStored((s) => ({ ...s, [key]: saved.value }));
      setErrors(({ [key]: _done, ...rest }) => rest);
      notify.success(t('platformSettings.logoSaved'));
    } catch (err) {
      const reason = err instanceof ApiError ? err.fields[0]?.reason : undefined;
      setErrors((e) => ({ ...e, [key]: reason ?? t('platformSettings.saveFailed') }));
    } finally {
      setUploading(null);
    }
  };

  const logos = (
    <Container header={<Header variant="h3">{t('platformSettings.sections.logos')}</Header>}>
      <ColumnLayout columns={3}>
        {LOGOS.map(({ mode, key, accept }) => (
          <FormField
            key={key}
            label={t(`platformSettings.fields.${key}`)}
            constraintText={t(mode === 'Favicon' ? 'platformSettings.faviconHint' : 'platformSettings.logoHint')}
            errorText={errors[key]}
          >
            <SpaceBetween size="xs">
              <Box padding="xs">
                {stored[key] ? (
                  <img
                    src={logoAddress(stored[key])}
                    alt={t(`platformSettings.fields.${key}`)}
                    style={{ maxHeight: 64, maxWidth: '100%', background: mode === 'Dark' ? '#0f1b2a' : undefined }}
                  />
                ) : (
                  <Box color="text-status-inactive">{t('platformSettings.noLogo')}</Box>
                )}
              </Box>
              <FileInput accept={accept} value={[]} onChange={({ detail }) => void upload(mode, key, detail.value[0])}>
                {uploading === key ? t('platformSettings.uploading') : t('platformSettings.chooseLogo')}
              </FileInput>
            </SpaceBetween>
          </FormField>
        ))}
      </ColumnLayout>
    </Container>
  );

  return (
    <Form
      actions={
        <Button variant="primary" loading={saving} onClick={() => void save()}>
          {t('platformSettings.save')}
        </Button>
      }
    >
      <SpaceBetween size="l">
        {SECTIONS.map((section) => (
          <Container
            key={section.id}
            header={<Header variant="h3">{t(`platformSettings.sections.${section.id}`)}</Header>}
          >
            <ColumnLayout columns={section.keys.length > 3 ? 3 : section.keys.length}>
              {section.keys.map(field)}
            </ColumnLayout>
          </Container>
        ))}
        {logos}
      </SpaceBetween>
    </Form>
  );
}

/**
 * The owner's "Plataforma" tab of /settings (core §2 Settings, super tabs): sign-ups on or off, the
 * download limit (D172), the app's name and colours (the branding every screen follows, D158), the AI key
 * (never shown back, only whether it is set, masked) and the whitelabel logos with their previews (D171).
 * The payment credentials have their own tab ("Pagamentos").
 */
export function PlatformSettingsManager() {
  const { t } = useTranslation();
  const request = useRequest((signal) => listPlatformSettings({ signal }), []);
  if (request.status === 'error') {
    return (
      <Alert type="error" action={<Button onClick={request.reload}>{t('common.retry')}</Button>}>
        {t('platformSettings.loadError')}
      </Alert>
    );
  }
  if (request.status !== 'ready') return <Spinner />;
  return <PlatformSettingsForm initial={request.data} />;
}
