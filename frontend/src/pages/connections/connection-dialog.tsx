import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Tabs from '@cloudscape-design/components/tabs';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/api/api-error';
import {
  createConnection,
  deleteGreetingMedia,
  getCompanySettingOne,
  getConnection,
  GREETING_MEDIA_MAX_BYTES,
  updateConnection,
  uploadGreetingMedia,
  type Connection,
  type ConnectionChannel,
} from '@/api/connections';
import { listQueues } from '@/api/queues';
import { useNotifications } from '@/components/notifications';
import { useErrorText } from '@/hooks/use-error-text';
import { useRequest } from '@/hooks/use-request';
import {
  AssessmentsTab,
  ChatbotTab,
  GeneralTab,
  IntegrationsTab,
  MessagesTab,
  SchedulesTab,
  type GreetingMediaProps,
  type QueueChoice,
} from './connection-fields';
import {
  firstTabWithError,
  newConnectionValues,
  serverErrors,
  TAB_ORDER,
  toInput,
  touchedFields,
  validateConnection,
  valuesOf,
  type ConnectionFormValues,
  type FormErrors,
  type TabId,
} from './connection-form';

export interface ConnectionDialogProps {
  /** The connection to edit; without it the dialog creates one of `channel`. */
  connectionId?: number | undefined;
  channel: ConnectionChannel;
  onDismiss: () => void;
  /** After a successful save, with the connection as the server answered it. */
  onSaved: (connection: Connection) => void;
}

/** What the dialog needs from the company settings; unreadable settings count as "not in use". */
interface DialogContext {
  /** GET /companySettingOne?column=scheduleType is 'connection': the schedules tab shows. */
  schedulesPerConnection: boolean;
  /** GET /companySettingOne?column=userRating is 'enabled': the NPS fields are required. */
  npsInUse: boolean;
  /** The company's queues (GET /queue) the chatbot tab offers; null when they could not be read. */
  queues: QueueChoice[] | null;
}

const loadContext = async (signal: AbortSignal): Promise<DialogContext> => {
  const [scheduleType, userRating, queues] = await Promise.all([
    getCompanySettingOne('scheduleType', { signal }).catch(() => undefined),
    getCompanySettingOne('userRating', { signal }).catch(() => undefined),
    listQueues({ signal })
      .then((list) => list.map(({ id, name, color }) => ({ id, name, color })))
      .catch(() => null),
  ]);
  return { schedulesPerConnection: scheduleType === 'connection', npsInUse: userRating === 'enabled', queues };
};

function Frame({
  title,
  footer,
  onDismiss,
  children,
}: {
  title: string;
  footer: ReactNode;
  onDismiss: () => void;
  children: ReactNode;
}) {
  return (
    <Modal visible size="max" header={title} footer={footer} onDismiss={onDismiss}>
      {children}
    </Modal>
  );
}

/** Translates a form error (an i18n key, or `raw:` + the server's own reason). */
const useErrorMessages = (errors: FormErrors): FormErrors => {
  const { t } = useTranslation();
  return Object.fromEntries(
    Object.entries(errors).map(([field, key]) => [field, key.startsWith('raw:') ? key.slice(4) : t(key)]),
  );
};

function ConnectionForm({
  connection,
  channel,
  context,
  onDismiss,
  onSaved,
}: Omit<ConnectionDialogProps, 'connectionId'> & { connection: Connection | undefined; context: DialogContext }) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const initial = useMemo(() => (connection ? valuesOf(connection) : undefined), [connection]);
  const [values, setValues] = useState<ConnectionFormValues>(() => initial ?? newConnectionValues());
  const [tab, setTab] = useState<TabId>('general');
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [fromServer, setFromServer] = useState<FormErrors>({});
  const [mediaFile, setMediaFile] = useState<File | null>(null);
  const [removeMedia, setRemoveMedia] = useState(false);

  const tabs = TAB_ORDER.filter((id) => id !== 'schedules' || context.schedulesPerConnection);
  const touched = touchedFields(values, initial);
  const rules = () => validateConnection(values, { npsInUse: context.npsInUse, touched });
  const errors = useErrorMessages({ ...fromServer, ...(submitted ? rules() : {}) });
  const mediaTooLarge = mediaFile !== null && mediaFile.size > GREETING_MEDIA_MAX_BYTES;
  const effectiveChannel = connection?.channel ?? channel;
  // Spec §4: changing the import of a connected WhatsApp drops the session for a new QR.
  const importDropsSession =
    connection?.channel === 'whatsapp' &&
    connection.status === 'CONNECTED' &&
    values.importOldMessages !== '' &&
    values.importOldMessages !== initial?.importOldMessages;

  const change = (next: Partial<ConnectionFormValues>) => {
    setValues((v) => ({ ...v, ...next }));
    // A server problem goes away once its field is edited.
    setFromServer((current) =>
      Object.fromEntries(Object.entries(current).filter(([field]) => !(field.split('.')[0]! in next))),
    );
  };

  const save = async () => {
    setSubmitted(true);
    const problems = rules();
    if (Object.keys(problems).length > 0 || mediaTooLarge) {
      setTab(firstTabWithError(problems, tabs) ?? (mediaTooLarge ? 'messages' : tab));
      return;
    }
    setSaving(true);
    const input = toInput(values, initial, effectiveChannel);
    let saved: Connection;
    try {
      if (!connection) saved = await createConnection({ ...input, name: values.name.trim() });
      else saved = Object.keys(input).length > 0 ? await updateConnection(connection.id, input) : connection;
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && err.fields.length > 0) {
        const found = serverErrors(err.fields);
        setFromServer(found);
        setTab(firstTabWithError(found, tabs) ?? tab);
      }
      notify.error(err);
      setSaving(false);
      return;
    }
    try {
      if (mediaFile) saved = await uploadGreetingMedia(saved.id, mediaFile);
      else if (removeMedia && saved.greetingMediaAttachment) saved = await deleteGreetingMedia(saved.id);
    } catch (err) {
      // The connection is saved; only its attachment failed, which the toast says.
      notify.error(err);
    }
    notify.success(t('connections.dialog.saved'));
    onSaved(saved);
  };

  const props = { values, onChange: change, errors };
  const media: GreetingMediaProps = {
    currentUrl: connection?.greetingMediaAttachment ?? null,
    file: mediaFile,
    remove: removeMedia,
    errorText: mediaTooLarge ? t('connections.dialog.greetingMediaTooLarge') : undefined,
    onFile: setMediaFile,
    onRemove: setRemoveMedia,
  };
  const content: Record<TabId, ReactNode> = {
    general: (
      <GeneralTab {...props} connection={connection} creating={!connection} importDropsSession={importDropsSession} />
    ),
    integrations: <IntegrationsTab {...props} />,
    messages: <MessagesTab {...props} media={media} />,
    // Unreadable queues: at least the connection's own stay choosable (the server checks every id).
    chatbot: <ChatbotTab {...props} queues={context.queues ?? connection?.queues ?? []} />,
    assessments: <AssessmentsTab {...props} npsInUse={context.npsInUse} />,
    schedules: <SchedulesTab {...props} />,
  };
  const title = connection
    ? t('connections.dialog.editTitle', { channel: t(`connections.channels.${effectiveChannel}`) })
    : t('connections.dialog.addTitle', { channel: t(`connections.channels.${effectiveChannel}`) });

  return (
    <Frame
      title={title}
      onDismiss={() => {
        if (!saving) onDismiss();
      }}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" disabled={saving} onClick={onDismiss}>
              {t('connections.dialog.cancel')}
            </Button>
            <Button variant="primary" loading={saving} onClick={() => void save()}>
              {connection ? t('connections.dialog.save') : t('connections.dialog.add')}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <Tabs
        activeTabId={tab}
        onChange={({ detail }) => setTab(detail.activeTabId as TabId)}
        tabs={tabs.map((id) => ({ id, label: t(`connections.dialog.tabs.${id}`), content: content[id] }))}
      />
    </Frame>
  );
}

/**
 * The connection dialog (core spec §2 Connections): tabs general, integrations, messages, chatbot,
 * assessments (NPS) and schedules (only when the company's schedule type is per connection). It reads the
 * connection afresh (and the two company settings it depends on, and the company's queues) before showing
 * the form. Mount it to
 * open it; the caller unmounts it to close.
 */
export function ConnectionDialog(props: ConnectionDialogProps) {
  const { t } = useTranslation();
  const textOf = useErrorText();
  const { connectionId, onDismiss } = props;
  const loaded = useRequest(
    async (signal) => {
      const [connection, context] = await Promise.all([
        connectionId === undefined ? Promise.resolve(undefined) : getConnection(connectionId, { signal }),
        loadContext(signal),
      ]);
      return { connection, context };
    },
    [connectionId],
  );
  if (loaded.status === 'ready') {
    return <ConnectionForm {...props} connection={loaded.data.connection} context={loaded.data.context} />;
  }
  const title =
    connectionId === undefined
      ? t('connections.dialog.addTitle', { channel: t(`connections.channels.${props.channel}`) })
      : t('connections.dialog.editTitleLoading');
  return (
    <Frame
      title={title}
      onDismiss={onDismiss}
      footer={
        <Box float="right">
          <Button variant="link" onClick={onDismiss}>
            {t('connections.dialog.cancel')}
          </Button>
        </Box>
      }
    >
      {loaded.status === 'loading' ? (
        <Box textAlign="center">
          <Spinner size="big" />
          <Box variant="span" margin={{ left: 's' }}>
            {t('common.loading')}
          </Box>
        </Box>
      ) : (
        <Alert
          type="error"
          header={t('connections.dialog.loadError')}
          action={<Button onClick={loaded.reload}>{t('common.retry')}</Button>}
        >
          {textOf(loaded.error)}
        </Alert>
      )}
    </Frame>
  );
}
