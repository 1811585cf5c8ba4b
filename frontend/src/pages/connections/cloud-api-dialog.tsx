import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/api/api-error';
import { connectCloudApiNumber, type CloudApiInput, type Connection } from '@/api/connections';
import { useNotifications } from '@/components/notifications';
import { useErrorText } from '@/hooks/use-error-text';
import { serverErrors, type FormErrors } from './connection-form';
import { withGraphMessage } from './meta-login';

export interface CloudApiValues {
  name: string;
  phoneNumberId: string;
  accessToken: string;
  businessAccountId: string;
}

type Field = keyof CloudApiValues;

const EMPTY: CloudApiValues = { name: '', phoneNumberId: '', accessToken: '', businessAccountId: '' };

/** The server's rules (functions/http/connections/index.ts `connect-cloud-api-number`, decisions D76). */
const META_ID = /^\d{5,30}$/;
const ACCESS_TOKEN = /^[\w.|-]+$/;

/** Problems by field, as i18n keys; a blank optional field is fine. */
export const validateCloudApi = (v: CloudApiValues): FormErrors => {
  const errors: FormErrors = {};
  const name = [...v.name.trim()].length;
  if (name > 0 && name < 2) errors.name = 'connections.validation.tooShort';
  else if (name > 50) errors.name = 'connections.validation.tooLong';

  const phone = v.phoneNumberId.trim();
  if (phone === '') errors.phoneNumberId = 'connections.validation.required';
  else if (!META_ID.test(phone)) errors.phoneNumberId = 'connections.cloudApi.errors.digits';

  const token = v.accessToken.trim();
  if (token === '') errors.accessToken = 'connections.validation.required';
  else if (token.length < 20) errors.accessToken = 'connections.validation.tooShort';
  else if (token.length > 4096) errors.accessToken = 'connections.validation.tooLong';
  else if (!ACCESS_TOKEN.test(token)) errors.accessToken = 'connections.cloudApi.errors.accessToken';

  const waba = v.businessAccountId.trim();
  if (waba !== '' && !META_ID.test(waba)) errors.businessAccountId = 'connections.cloudApi.errors.digits';
  return errors;
};

/** The body of POST /whatsapp/cloud-api: trimmed, blank optional fields left out. */
export const toCloudApiInput = (v: CloudApiValues): CloudApiInput => ({
  ...(v.name.trim() ? { name: v.name.trim() } : {}),
  phoneNumberId: v.phoneNumberId.trim(),
  accessToken: v.accessToken.trim(),
  ...(v.businessAccountId.trim() ? { businessAccountId: v.businessAccountId.trim() } : {}),
});

/** This form's own reasons of the server (the connection rules' reasons are known to serverErrors). */
const CLOUD_API_REASONS: Record<string, string> = {
  'must be the phone number id (digits)': 'connections.cloudApi.errors.digits',
  'must be the WhatsApp Business Account id (digits)': 'connections.cloudApi.errors.digits',
  'must be an access token': 'connections.cloudApi.errors.accessToken',
};

const cloudApiServerErrors = (err: ApiError): FormErrors =>
  Object.fromEntries(
    Object.entries(serverErrors(err.fields)).map(([field, key]) => [
      field,
      (key.startsWith('raw:') && CLOUD_API_REASONS[key.slice(4)]) || key,
    ]),
  );

const FIELDS: readonly { field: Field; type: 'text' | 'password'; numeric?: boolean }[] = [
  { field: 'name', type: 'text' },
  { field: 'phoneNumberId', type: 'text', numeric: true },
  { field: 'accessToken', type: 'password' },
  { field: 'businessAccountId', type: 'text', numeric: true },
];

/**
 * "WhatsApp Cloud API" of the new-connection menu (decisions D76): the number's phone number id and a
 * permanent access token from Meta's WhatsApp Manager (optionally the business account id), checked here
 * as the server checks them and sent to POST /whatsapp/cloud-api. The token lives only in this form's
 * state (a password field) and in that one request. Mount it to open it; the caller unmounts it to close.
 */
export function CloudApiDialog({
  onDismiss,
  onSaved,
}: {
  onDismiss: () => void;
  /** The new connection, as the server answered it. */
  onSaved: (connection: Connection) => void;
}) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const textOf = useErrorText();
  const [values, setValues] = useState<CloudApiValues>(EMPTY);
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [fromServer, setFromServer] = useState<FormErrors>({});
  const [failure, setFailure] = useState<unknown>(null);

  const errors: FormErrors = { ...fromServer, ...(submitted ? validateCloudApi(values) : {}) };
  const errorTextOf = (field: Field): string | undefined => {
    const key = errors[field];
    if (!key) return undefined;
    return key.startsWith('raw:') ? key.slice(4) : t(key);
  };

  const change = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    // A server problem goes away once its field is edited.
    setFromServer(({ [field]: _gone, ...rest }) => rest);
  };

  const connect = async () => {
    setSubmitted(true);
    if (Object.keys(validateCloudApi(values)).length > 0) return;
    setSaving(true);
    setFailure(null);
    let saved: Connection;
    try {
      saved = await connectCloudApiNumber(toCloudApiInput(values));
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && err.fields.length > 0) {
        setFromServer(cloudApiServerErrors(err));
      } else {
        setFailure(withGraphMessage(err));
      }
      setSaving(false);
      return;
    }
    notify.success(t('connections.cloudApi.connected'));
    onSaved(saved);
  };

  return (
    <Modal
      visible
      size="medium"
      header={t('connections.cloudApi.title')}
      onDismiss={() => {
        if (!saving) onDismiss();
      }}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" disabled={saving} onClick={onDismiss}>
              {t('connections.cloudApi.cancel')}
            </Button>
            <Button variant="primary" loading={saving} onClick={() => void connect()}>
              {t('connections.cloudApi.connect')}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!saving) void connect();
        }}
      >
        <SpaceBetween size="m">
          <Box variant="p">{t('connections.cloudApi.intro')}</Box>
          {FIELDS.map(({ field, type, numeric }) => (
            <FormField
              key={field}
              label={t(`connections.cloudApi.${field}`)}
              constraintText={t(`connections.cloudApi.${field}Hint`)}
              errorText={errorTextOf(field)}
            >
              <Input
                type={type}
                value={values[field]}
                onChange={({ detail }) => change(field, detail.value)}
                disabled={saving}
                autoComplete={false}
                disableBrowserAutocorrect
                spellcheck={false}
                {...(numeric ? { inputMode: 'numeric' as const } : {})}
              />
            </FormField>
          ))}
          {failure !== null && (
            <Alert type="error" header={t('connections.cloudApi.errorHeader')}>
              {textOf(failure)}
            </Alert>
          )}
        </SpaceBetween>
      </form>
    </Modal>
  );
}
