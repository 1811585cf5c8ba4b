import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import FileInput from '@cloudscape-design/components/file-input';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import CopyToClipboard from '@cloudscape-design/components/copy-to-clipboard';
import { listConnections } from '@/api/connections';
import { useAppServices } from '@/app-services';
import { useRequest } from '@/hooks/use-request';
import { useNotifications } from '@/components/notifications';

/** Administration §5: numbers carry no mask or special characters: country code, area code and number. */
export const API_NUMBER = /^\d{10,15}$/;
const SEND_PATH = '/messages/send';

interface SendAnswer {
  ok: boolean;
  status: number;
  body: unknown;
}

/**
 * Calls the external messages API as an integrator would: the pasted connection token as bearer, not the
 * user's session (a 401 here must not end the session, so the app's transport is not used).
 */
const callApi = async (apiBase: string, token: string, body: FormData | string): Promise<SendAnswer> => {
  const res = await fetch(`${apiBase}${SEND_PATH}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token.trim()}`,
      ...(typeof body === 'string' ? { 'content-type': 'application/json' } : {}),
    },
    body,
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { ok: res.ok, status: res.status, body: parsed };
};

function Code({ children }: { children: string }) {
  return (
    <Box variant="code" display="block">
      <pre style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{children}</pre>
    </Box>
  );
}

type Errors = Partial<Record<'token' | 'number' | 'body' | 'file', string>>;

function TestForm({
  title,
  media,
  onSend,
}: {
  title: string;
  media: boolean;
  onSend: (input: { token: string; number: string; body: string; file: File | null }) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [token, setToken] = useState('');
  const [number, setNumber] = useState('');
  const [body, setBody] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const found: Errors = {};
    if (!token.trim()) found.token = t('messagesApi.form.required');
    if (!number.trim()) found.number = t('messagesApi.form.required');
    else if (!API_NUMBER.test(number.trim())) found.number = t('messagesApi.form.numberRule');
    if (!media && !body.trim()) found.body = t('messagesApi.form.required');
    if (media && !file) found.file = t('messagesApi.form.required');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await onSend({ token, number: number.trim(), body, file });
      setBody('');
      setFile(null);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Container header={<Header variant="h2">{title}</Header>}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Form
          actions={
            <Button variant="primary" formAction="submit" loading={busy}>
              {t('messagesApi.form.send')}
            </Button>
          }
        >
          <SpaceBetween size="m">
            <FormField label={t('messagesApi.form.token')} errorText={errors.token}>
              <Input value={token} onChange={({ detail }) => setToken(detail.value)} type="password" />
            </FormField>
            <FormField
              label={t('messagesApi.form.number')}
              constraintText={t('messagesApi.form.numberHint')}
              errorText={errors.number}
            >
              <Input value={number} onChange={({ detail }) => setNumber(detail.value)} inputMode="numeric" />
            </FormField>
            <FormField
              label={media ? t('messagesApi.form.caption') : t('messagesApi.form.body')}
              errorText={errors.body}
            >
              <Textarea value={body} onChange={({ detail }) => setBody(detail.value)} rows={3} />
            </FormField>
            {media && (
              <FormField label={t('messagesApi.form.file')} errorText={errors.file}>
                <FileInput value={file ? [file] : []} onChange={({ detail }) => setFile(detail.value[0] ?? null)}>
                  {t('messagesApi.form.chooseFile')}
                </FileInput>
              </FormField>
            )}
          </SpaceBetween>
        </Form>
      </form>
    </Container>
  );
}

/**
 * /messages-api (administration spec "External messages API"; decisions D123): how to send a text and a
 * media message with a connection's token, and two test forms that call the API with a token the user
 * pastes ('Mensagem enviada com sucesso'). The route guard asks for the plan's useExternalApi.
 */
export function MessagesApiPage() {
  const { t } = useTranslation();
  const { config } = useAppServices();
  const notifications = useNotifications();
  const endpoint = `${config.apiBase}${SEND_PATH}`;
  // The company's connection tokens (GET /whatsapp answers them to admins), to copy into a test form.
  const connections = useRequest((signal) => listConnections({ signal }), []);
  const tokens =
    connections.status === 'ready' ? connections.data.filter((c) => c.token && c.channel === 'whatsapp') : [];
  const send = async (answer: Promise<SendAnswer>) => {
    let result: SendAnswer;
    try {
      result = await answer;
    } catch {
      notifications.notify('error', t('messagesApi.unreachable'));
      return;
    }
    if (result.ok) {
      notifications.notify('success', t('messagesApi.sent'));
      return;
    }
    const error = result.body as
      { message?: string; fields?: { field: string; reason: string }[]; details?: { retryAfter?: number } } | undefined;
    const retryAfter = error?.details?.retryAfter;
    const reason =
      result.status === 401
        ? t('messagesApi.badToken')
        : result.status === 429
          ? retryAfter === undefined
            ? t('messagesApi.throttled')
            : t('messagesApi.throttledFor', { seconds: retryAfter })
          : (error?.fields?.map((f) => `${f.field}: ${f.reason}`).join('; ') ??
            error?.message ??
            String(result.status));
    notifications.notify('error', t('messagesApi.failed', { reason }));
  };
  const section = (heading: string, children: ReactNode) => (
    <SpaceBetween size="xs">
      <Box variant="h3">{heading}</Box>
      {children}
    </SpaceBetween>
  );
  return (
    <SpaceBetween size="l">
      <Header variant="h1" description={t('messagesApi.description')}>
        {t('messagesApi.title')}
      </Header>
      <Container header={<Header variant="h2">{t('messagesApi.docs.title')}</Header>}>
        <SpaceBetween size="m">
          <Box>{t('messagesApi.docs.auth')}</Box>
          {section(t('messagesApi.docs.endpoint'), <Code>{`POST ${endpoint}`}</Code>)}
          {section(
            t('messagesApi.docs.text'),
            <Code>{`Authorization: Bearer <token>\nContent-Type: application/json\n\n{\n  "number": "5511999999999",\n  "body": "Olá!",\n  "userId": 1,\n  "queueId": 1\n}`}</Code>,
          )}
          {section(
            t('messagesApi.docs.media'),
            <Code>{`Authorization: Bearer <token>\nContent-Type: multipart/form-data\n\nnumber=5511999999999\nbody=Legenda\nmedias=@arquivo.pdf`}</Code>,
          )}
          <Box>{t('messagesApi.docs.number')}</Box>
          <Box>{t('messagesApi.docs.optional')}</Box>
          <Box>{t('messagesApi.docs.pacing')}</Box>
        </SpaceBetween>
      </Container>
      <Container header={<Header variant="h2">{t('messagesApi.tokens.title')}</Header>}>
        {tokens.length === 0 ? (
          <Box color="text-status-inactive">{t('messagesApi.tokens.none')}</Box>
        ) : (
          <SpaceBetween size="xs">
            {tokens.map((c) => (
              <SpaceBetween key={c.id} direction="horizontal" size="xs" alignItems="center">
                <Box fontWeight="bold">{c.name}</Box>
                <CopyToClipboard
                  variant="inline"
                  textToCopy={c.token!}
                  copyButtonAriaLabel={t('messagesApi.tokens.copy', { name: c.name })}
                  copySuccessText={t('messagesApi.tokens.copied')}
                  copyErrorText={t('messagesApi.tokens.copyFailed')}
                />
              </SpaceBetween>
            ))}
          </SpaceBetween>
        )}
      </Container>
      <ColumnLayout columns={2}>
        <TestForm
          title={t('messagesApi.textTest')}
          media={false}
          onSend={({ token, number, body }) => send(callApi(config.apiBase, token, JSON.stringify({ number, body })))}
        />
        <TestForm
          title={t('messagesApi.mediaTest')}
          media
          onSend={({ token, number, body, file }) => {
            const form = new FormData();
            form.append('number', number);
            form.append('body', body);
            form.append('medias', file!, file!.name);
            return send(callApi(config.apiBase, token, form));
          }}
        />
      </ColumnLayout>
    </SpaceBetween>
  );
}
