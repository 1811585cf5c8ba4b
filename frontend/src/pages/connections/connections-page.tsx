import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ButtonDropdown, { type ButtonDropdownProps } from '@cloudscape-design/components/button-dropdown';
import Header from '@cloudscape-design/components/header';
import Icon from '@cloudscape-design/components/icon';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { deleteConnection, type Connection, type ConnectionChannel } from '@/api/connections';
import type { PlanFlags } from '@/api/plans';
import { ConfirmDeleteModal } from '@/components/confirm-modal';
import { useCurrentUser, usePlan } from '@/components/shell/shell-context';
import { useErrorText } from '@/hooks/use-error-text';
import { useLiveConnections } from '@/components/use-live-connections';
import { AccessDeniedPage } from '@/pages/errors/access-denied-page';
import { can, connectionsRoleOf } from '@/permissions';
import { CloudApiDialog } from './cloud-api-dialog';
import { ConnectionDialog } from './connection-dialog';
import { ImportProgress } from './import-progress';
import { ChannelIcon, ChannelLabel, ConnectionStatusBadge } from './connection-status';
import { MetaLoginDialog } from './meta-login-dialog';
import { QrCodeDialog } from './qr-code-dialog';
import { SessionActions } from './session-actions';

/**
 * The channels of the new-connection menu and the plan flag each needs (core spec §2, §3 Plan): WhatsApp
 * opens the connection dialog (a QR code follows), Facebook and Instagram the Meta login (D40), the Cloud
 * API its form (D76).
 */
export const NEW_CONNECTION_CHANNELS: readonly { channel: ConnectionChannel; flag: keyof PlanFlags }[] = [
  { channel: 'whatsapp', flag: 'useWhatsapp' },
  { channel: 'facebook', flag: 'useFacebook' },
  { channel: 'instagram', flag: 'useInstagram' },
  { channel: 'whatsappapi', flag: 'useWhatsapp' },
];

const pad = (n: number) => String(n).padStart(2, '0');

/** dd/MM/yy HH:mm in the browser's time zone, as the reference list shows the last update. */
export const formatUpdatedAt = (iso: string): string => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${pad(date.getFullYear() % 100)} ${pad(date.getHours())}:${pad(
    date.getMinutes(),
  )}`;
};

type Editing = { kind: 'create'; channel: ConnectionChannel } | { kind: 'edit'; connection: Connection };

/**
 * A cell's buttons on one row, never wrapped: the table widens the column (it scrolls sideways on a narrow
 * screen) instead of stacking the buttons untidily.
 */
const ONE_ROW = { display: 'flex', flexWrap: 'nowrap', alignItems: 'center', gap: 8, whiteSpace: 'nowrap' } as const;

function ConnectionsList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const textOf = useErrorText();
  const user = useCurrentUser();
  const { planFlags, planLoaded } = usePlan();
  const role = connectionsRoleOf(user);
  const sessionColumns = can(role, 'connections-page:actionButtons');
  const mayAdd = can(role, 'connections-page:addConnection');
  const mayEdit = can(role, 'connections-page:editOrDeleteConnection');
  const list = useLiveConnections(user.companyId);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<Connection | null>(null);
  const [qrFor, setQrFor] = useState<number | null>(null);

  const update = (connection: Connection) => list.apply({ kind: 'update', connection });
  const channels = NEW_CONNECTION_CHANNELS.filter((c) => planFlags[c.flag]);

  const columns: TableProps.ColumnDefinition<Connection>[] = [
    { id: 'name', header: t('connections.columns.name'), cell: (c) => c.name, isRowHeader: true },
    { id: 'channel', header: t('connections.columns.channel'), cell: (c) => <ChannelLabel channel={c.channel} /> },
    { id: 'number', header: t('connections.columns.number'), cell: (c) => c.number || '—' },
    {
      id: 'status',
      header: t('connections.columns.status'),
      cell: (c) => <ConnectionStatusBadge status={c.status} />,
    },
    ...(sessionColumns
      ? [
          {
            id: 'session',
            header: t('connections.columns.session'),
            cell: (c: Connection) => (
              <div style={ONE_ROW}>
                <SessionActions
                  connection={c}
                  onShowQr={() => setQrFor(c.id)}
                  onAnswer={(answer, action) => {
                    update(answer);
                    // A new QR code is on its way: show the dialog, which draws it once the worker sends it.
                    if (action === 'renew') setQrFor(answer.id);
                  }}
                />
                <ImportProgress connection={c} onRefresh={list.reload} />
              </div>
            ),
          },
        ]
      : []),
    {
      id: 'updatedAt',
      header: t('connections.columns.updatedAt'),
      cell: (c) => <span style={{ whiteSpace: 'nowrap' }}>{formatUpdatedAt(c.updatedAt)}</span>,
    },
    {
      id: 'default',
      header: t('connections.columns.default'),
      cell: (c) =>
        c.isDefault ? (
          <span role="img" aria-label={t('connections.isDefault')}>
            <Icon name="status-positive" variant="success" />
          </span>
        ) : null,
    },
    ...(sessionColumns && mayEdit
      ? [
          {
            id: 'actions',
            header: t('connections.columns.actions'),
            cell: (c: Connection) => (
              <div style={ONE_ROW}>
                {c.channel === 'whatsapp' && c.status === 'CONNECTED' && (
                  <Button
                    variant="inline-link"
                    wrapText={false}
                    ariaLabel={t('connections.openSimulator', { name: c.name })}
                    onClick={() => void navigate(`/connections/${c.id}/simulator`)}
                  >
                    {t('simulator.rowButton')}
                  </Button>
                )}
                <Button
                  variant="icon"
                  iconName="edit"
                  ariaLabel={t('connections.edit', { name: c.name })}
                  onClick={() => setEditing({ kind: 'edit', connection: c })}
                />
                <Button
                  variant="icon"
                  iconName="remove"
                  ariaLabel={t('connections.remove', { name: c.name })}
                  onClick={() => setDeleting(c)}
                />
              </div>
            ),
          },
        ]
      : []),
  ];

  const items: ButtonDropdownProps.Item[] = channels.map(({ channel }) => ({
    id: channel,
    text: t(`connections.channels.${channel}`),
    iconSvg: <ChannelIcon channel={channel} />,
  }));

  const failedFirst = list.status === 'error' && list.connections.length === 0;

  return (
    <>
      <Table
        variant="full-page"
        stickyHeader
        items={list.connections}
        trackBy="id"
        columnDefinitions={columns}
        loading={list.status === 'loading' && list.connections.length === 0}
        loadingText={t('connections.loading')}
        header={
          <Header
            variant="awsui-h1-sticky"
            counter={list.status === 'ready' ? `(${list.connections.length})` : undefined}
            actions={
              mayAdd && (
                <ButtonDropdown
                  variant="primary"
                  items={items}
                  disabled={!planLoaded || items.length === 0}
                  disabledReason={planLoaded ? t('connections.noChannelInPlan') : undefined}
                  onItemClick={({ detail }) => setEditing({ kind: 'create', channel: detail.id as ConnectionChannel })}
                >
                  {t('connections.add')}
                </ButtonDropdown>
              )
            }
          >
            {t('connections.title')}
          </Header>
        }
        empty={
          failedFirst ? (
            <Alert
              type="error"
              header={t('connections.loadError')}
              action={<Button onClick={list.reload}>{t('common.retry')}</Button>}
            >
              {textOf(list.error)}
            </Alert>
          ) : (
            <Box textAlign="center" color="inherit">
              {t('connections.empty')}
            </Box>
          )
        }
      />
      {editing?.kind === 'create' && editing.channel === 'whatsappapi' && (
        <CloudApiDialog
          onDismiss={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            update(saved);
          }}
        />
      )}
      {editing?.kind === 'create' && (editing.channel === 'facebook' || editing.channel === 'instagram') && (
        <MetaLoginDialog
          addInstagram={editing.channel === 'instagram'}
          onDismiss={() => setEditing(null)}
          onConnected={update}
        />
      )}
      {(editing?.kind === 'edit' || editing?.channel === 'whatsapp') && (
        <ConnectionDialog
          connectionId={editing.kind === 'edit' ? editing.connection.id : undefined}
          channel={editing.kind === 'edit' ? editing.connection.channel : editing.channel}
          onDismiss={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            update(saved);
          }}
        />
      )}
      {deleting && (
        <ConfirmDeleteModal
          section="connections.delete"
          name={deleting.name}
          remove={() => deleteConnection(deleting.id)}
          onDismiss={() => setDeleting(null)}
          onDeleted={() => {
            const id = deleting.id;
            setDeleting(null);
            list.apply({ kind: 'delete', id });
          }}
        />
      )}
      {qrFor !== null && (
        <QrCodeDialog connection={list.connections.find((c) => c.id === qrFor)} onDismiss={() => setQrFor(null)} />
      )}
    </>
  );
}

/**
 * /connections (core spec §2 Connections, §4, §6): the company's connections with their live status, the
 * session actions, the new-connection menu (the channels the plan allows), edit and delete. Admins, super
 * users and plain users with allowConnections manage them; anyone else gets the no-permission view.
 */
export function ConnectionsPage() {
  const user = useCurrentUser();
  if (!can(connectionsRoleOf(user), 'connections-page:actionButtons')) return <AccessDeniedPage />;
  return <ConnectionsList />;
}
