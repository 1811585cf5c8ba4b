import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import FileInput from '@cloudscape-design/components/file-input';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import TimeInput from '@cloudscape-design/components/time-input';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listConnections } from '@/api/connections';
import { AVATAR_TYPES } from '@/api/users';
import type { FormApi } from '@/components/form-modal/form-modal';
import { useErrorText } from '@/hooks/use-error-text';
import { useRequest } from '@/hooks/use-request';
import { PasswordField } from '@/pages/auth/password-field';
import type { UserFormValues } from './user-form';

/** A Select over fixed values whose labels are translated. */
function ChoiceField<V extends string>({
  label,
  value,
  choices,
  onChange,
}: {
  label: string;
  value: V;
  choices: { value: V; label: string }[];
  onChange: (value: V) => void;
}) {
  const options: SelectProps.Option[] = choices;
  return (
    <FormField label={label}>
      <Select
        selectedOption={options.find((o) => o.value === value) ?? null}
        options={options}
        onChange={({ detail }) => onChange(detail.selectedOption.value as V)}
      />
    </FormField>
  );
}

/** An object URL for the chosen file while it is shown (none where the browser has no createObjectURL). */
function useFilePreview(file: File | null): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') {
      setUrl(undefined);
      return undefined;
    }
    const objectUrl = URL.createObjectURL(file);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);
  return url;
}

const AVATAR_SIZE = 56;

/**
 * The user's default connection (admins only): the company's connections by name (GET /whatsapp), or none.
 * A connection that no longer exists still shows by its id until another is chosen.
 */
function DefaultConnectionField({ value, onChange }: { value: number | null; onChange: (id: number | null) => void }) {
  const { t } = useTranslation();
  const textOf = useErrorText();
  const connections = useRequest((signal) => listConnections({ signal }), []);
  const none: SelectProps.Option = { value: '', label: t('users.dialog.noConnection') };
  const listed: SelectProps.Option[] =
    connections.status === 'ready' ? connections.data.map((c) => ({ value: String(c.id), label: c.name })) : [];
  const selected =
    value === null
      ? none
      : (listed.find((o) => o.value === String(value)) ?? { value: String(value), label: `#${value}` });
  return (
    <FormField label={t('users.dialog.defaultConnection')}>
      <Select
        selectedOption={selected}
        options={[none, ...listed]}
        statusType={connections.status === 'ready' ? 'finished' : connections.status}
        loadingText={t('common.loading')}
        errorText={connections.status === 'error' ? textOf(connections.error) : undefined}
        recoveryText={t('common.retry')}
        onLoadItems={() => {
          if (connections.status === 'error') connections.reload();
        }}
        onChange={({ detail }) => onChange(detail.selectedOption.value ? Number(detail.selectedOption.value) : null)}
      />
    </FormField>
  );
}

function AvatarField({
  name,
  currentUrl,
  file,
  errorText,
  onChange,
}: {
  name: string;
  currentUrl: string | undefined;
  file: File | null;
  errorText: string | undefined;
  onChange: (file: File | null) => void;
}) {
  const { t } = useTranslation();
  const preview = useFilePreview(file);
  const shown = preview ?? (file ? undefined : currentUrl);
  return (
    <FormField label={t('users.dialog.avatar')} description={t('users.dialog.avatarHint')} errorText={errorText}>
      <SpaceBetween direction="horizontal" size="s" alignItems="center">
        {shown && (
          <img
            src={shown}
            alt={t('users.dialog.avatarOf', { name })}
            width={AVATAR_SIZE}
            height={AVATAR_SIZE}
            style={{ borderRadius: '50%', objectFit: 'cover' }}
          />
        )}
        <FileInput
          accept={AVATAR_TYPES.join(',')}
          value={file ? [file] : []}
          onChange={({ detail }) => onChange(detail.value[0] ?? null)}
        >
          {t('users.dialog.avatarChoose')}
        </FileInput>
        {file && <Box variant="span">{file.name}</Box>}
        {file && (
          <Button variant="inline-link" onClick={() => onChange(null)}>
            {t('users.dialog.avatarRemove')}
          </Button>
        )}
      </SpaceBetween>
    </FormField>
  );
}

/**
 * The general tab of the user dialog. Everyone edits name, e-mail, password, theme, menu and picture; the
 * profile, work hours, default connection and farewell message only show to admins (spec §6). Queues wait
 * for the queues API (docs/decisions/D30-users-screens-todo-list.md).
 */
export function UserGeneralFields({
  form,
  creating,
  admin,
  currentAvatarUrl,
}: {
  form: FormApi<UserFormValues>;
  creating: boolean;
  admin: boolean;
  currentAvatarUrl: string | undefined;
}) {
  const { values, set: onChange } = form;
  const { t } = useTranslation();
  return (
    <SpaceBetween size="m">
      <ColumnLayout columns={2}>
        <FormField label={t('users.dialog.name')} errorText={form.error('name')}>
          <Input value={values.name} autoComplete="off" onChange={({ detail }) => onChange({ name: detail.value })} />
        </FormField>
        <FormField label={t('users.dialog.email')} errorText={form.error('email')}>
          <Input
            type="email"
            inputMode="email"
            autoComplete="off"
            value={values.email}
            onChange={({ detail }) => onChange({ email: detail.value })}
          />
        </FormField>
        <PasswordField
          label={t('users.dialog.password')}
          autoComplete="new-password"
          value={values.password}
          onChange={(password) => onChange({ password })}
          errorText={form.error('password')}
          constraintText={creating ? undefined : t('users.dialog.passwordEditHint')}
        />
        {admin && (
          <ChoiceField
            label={t('users.dialog.profile')}
            value={values.profile}
            choices={[
              { value: 'admin', label: t('users.profiles.admin') },
              { value: 'user', label: t('users.profiles.user') },
            ]}
            onChange={(profile) => onChange({ profile })}
          />
        )}
      </ColumnLayout>
      {admin && (
        <ColumnLayout columns={2}>
          <FormField
            label={t('users.dialog.startWork')}
            constraintText={t('users.dialog.workTimeHint')}
            errorText={form.error('startWork')}
          >
            <TimeInput
              format="hh:mm"
              use24Hour
              placeholder="hh:mm"
              value={values.startWork}
              onChange={({ detail }) => onChange({ startWork: detail.value })}
            />
          </FormField>
          <FormField
            label={t('users.dialog.endWork')}
            constraintText={t('users.dialog.workTimeHint')}
            errorText={form.error('endWork')}
          >
            <TimeInput
              format="hh:mm"
              use24Hour
              placeholder="hh:mm"
              value={values.endWork}
              onChange={({ detail }) => onChange({ endWork: detail.value })}
            />
          </FormField>
        </ColumnLayout>
      )}
      {admin && (
        <DefaultConnectionField value={values.whatsappId} onChange={(whatsappId) => onChange({ whatsappId })} />
      )}
      {admin && (
        <FormField label={t('users.dialog.farewellMessage')} stretch>
          <Textarea
            rows={3}
            value={values.farewellMessage}
            onChange={({ detail }) => onChange({ farewellMessage: detail.value })}
          />
        </FormField>
      )}
      <ColumnLayout columns={2}>
        <ChoiceField
          label={t('users.dialog.defaultTheme')}
          value={values.defaultTheme}
          choices={[
            { value: 'light', label: t('users.dialog.themes.light') },
            { value: 'dark', label: t('users.dialog.themes.dark') },
          ]}
          onChange={(defaultTheme) => onChange({ defaultTheme })}
        />
        <ChoiceField
          label={t('users.dialog.defaultMenu')}
          value={values.defaultMenu}
          choices={[
            { value: 'open', label: t('users.dialog.menus.open') },
            { value: 'closed', label: t('users.dialog.menus.closed') },
          ]}
          onChange={(defaultMenu) => onChange({ defaultMenu })}
        />
      </ColumnLayout>
      <AvatarField
        name={values.name}
        currentUrl={currentAvatarUrl}
        file={values.avatar}
        errorText={form.error('avatar')}
        onChange={(avatar) => onChange({ avatar })}
      />
    </SpaceBetween>
  );
}
