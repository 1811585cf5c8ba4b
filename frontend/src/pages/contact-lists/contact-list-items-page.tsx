import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FileInput from '@cloudscape-design/components/file-input';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { TableProps } from '@cloudscape-design/components/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import {
  CONTACT_LIST_EXAMPLE_PATH,
  CONTACT_LIST_FILE_EXTENSIONS,
  deleteContactListItem,
  getContactList,
  listContactListItems,
  MAX_CONTACT_LIST_UPLOAD_BYTES,
  uploadContactList,
  type ContactListItem,
} from '@/api/contact-lists';
import type { ContactImportView } from '@/api/contacts';
import { ListPage } from '@/components/list-page/list-page';
import { useLiveList, type LiveChange } from '@/components/list-page/use-live-list';
import { useNotifications } from '@/components/notifications';
import { useCurrentUser } from '@/components/shell/shell-context';
import { useRequest } from '@/hooks/use-request';
import type { SocketEvent } from '@/realtime/socket';
import { useChannel } from '@/realtime/use-socket';
import { companyChannel } from '@contracts/realtime';
import { ContactListItemDialog } from './contact-list-item-dialog';

const byName = (a: ContactListItem, b: ContactListItem) =>
  a.name.localeCompare(b.name, 'pt', { sensitivity: 'base' }) || a.id - b.id;

/** `company-{id}-ContactListItem` events of this list: create/update carry `record`, delete `id`. */
const itemChange =
  (contactListId: number) =>
  (event: SocketEvent): LiveChange<ContactListItem> | null => {
    const record = event.record as ContactListItem | undefined;
    if ((event.action === 'create' || event.action === 'update') && record?.contactListId === contactListId) {
      return { kind: event.action, item: record };
    }
    if (event.action === 'delete' && event.contactListId === contactListId && typeof event.id === 'number') {
      return { kind: 'delete', id: event.id };
    }
    return null;
  };

/**
 * /contact-lists/{contactListId}/contacts (administration spec "Contact lists"; decisions D122): search,
 * back to the lists, import (xls, xlsx or csv, with a progress bar live from `company-{id}-contactImport`),
 * the example spreadsheet, add; each row shows whether the number is on WhatsApp, name, number, e-mail,
 * edit and delete. Kept live from `company-{id}-ContactListItem` (an import's `reload` reads it again).
 */
export function ContactListItemsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const notifications = useNotifications();
  const contactListId = Number(useParams().contactListId);
  const contactList = useRequest((signal) => getContactList(contactListId, { signal }), [contactListId]);
  const [importing, setImporting] = useState<ContactImportView | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const list = useLiveList({
    fetchPage: async (query, options) => {
      const page = await listContactListItems(contactListId, query, options);
      return { items: page.contacts, hasMore: page.hasMore, nextCursor: page.nextCursor };
    },
    compare: byName,
    channel: companyChannel(user.companyId, 'ContactListItem'),
    change: itemChange(contactListId),
  });
  const { reset } = list;

  useChannel(companyChannel(user.companyId, 'ContactListItem'), (event) => {
    if (event.action === 'reload' && event.contactListId === contactListId) reset();
  });
  useChannel(companyChannel(user.companyId, 'contactImport'), (event) => {
    const update = event.import as ContactImportView | undefined;
    if (!update || update.id !== importing?.id) return;
    setImporting(update);
    if (update.status === 'done') reset();
  });

  const startImport = async (chosen: File) => {
    const lower = chosen.name.toLowerCase();
    if (!CONTACT_LIST_FILE_EXTENSIONS.some((ext) => lower.endsWith(ext))) {
      notifications.notify('error', t('contactLists.items.import.onlySheets'));
      return;
    }
    if (chosen.size > MAX_CONTACT_LIST_UPLOAD_BYTES) {
      notifications.notify('error', t('contactLists.items.import.tooLarge'));
      return;
    }
    try {
      setImporting(await uploadContactList(contactListId, chosen));
    } catch (err) {
      notifications.error(err);
    } finally {
      setFile(null);
    }
  };

  const columns: TableProps.ColumnDefinition<ContactListItem>[] = [
    {
      id: 'isWhatsappValid',
      header: t('contactLists.items.columns.whatsapp'),
      cell: (r) =>
        r.isWhatsappValid === null ? (
          <StatusIndicator type="pending">{t('contactLists.items.whatsappUnknown')}</StatusIndicator>
        ) : r.isWhatsappValid ? (
          <StatusIndicator type="success">{t('contactLists.items.whatsappValid')}</StatusIndicator>
        ) : (
          <StatusIndicator type="error">{t('contactLists.items.whatsappInvalid')}</StatusIndicator>
        ),
    },
    { id: 'name', header: t('contactLists.items.columns.name'), cell: (r) => r.name, isRowHeader: true },
    { id: 'number', header: t('contactLists.items.columns.number'), cell: (r) => r.number },
    { id: 'email', header: t('contactLists.items.columns.email'), cell: (r) => r.email || '—' },
  ];

  const done = importing?.status === 'done' || importing?.status === 'failed';
  return (
    <SpaceBetween size="m">
      {contactList.status === 'ready' && (
        <Box variant="h2" data-testid="contact-list-name">
          {contactList.data.name}
        </Box>
      )}
      {importing && (
        <Alert
          type={importing.status === 'failed' ? 'error' : done ? 'success' : 'info'}
          dismissible={done}
          onDismiss={() => setImporting(null)}
        >
          {importing.status === 'failed' ? (
            t('contactLists.items.import.failed')
          ) : (
            <ProgressBar
              label={t('contactLists.items.import.progress', { fileName: importing.fileName })}
              value={importing.total ? Math.round((importing.processed / importing.total) * 100) : 0}
              status={done ? 'success' : 'in-progress'}
              resultText={t('contactLists.items.import.summary', {
                created: importing.created,
                merged: importing.merged,
                ignored: importing.ignored,
              })}
              additionalInfo={
                done
                  ? undefined
                  : t('contactLists.items.import.processed', {
                      processed: importing.processed,
                      total: importing.total ?? '…',
                    })
              }
            />
          )}
        </Alert>
      )}
      <ListPage
        list={list}
        section="contactLists.items"
        columns={columns}
        itemName={(r) => r.name}
        form={({ item, onDismiss, onSaved }) => (
          <ContactListItemDialog contactListId={contactListId} record={item} onDismiss={onDismiss} onSaved={onSaved} />
        )}
        remove={(r) => deleteContactListItem(r.id)}
        headerActions={
          <>
            <Button iconName="arrow-left" onClick={() => void navigate('/contact-lists')}>
              {t('contactLists.items.back')}
            </Button>
            <Button iconName="download" href={CONTACT_LIST_EXAMPLE_PATH}>
              {t('contactLists.example')}
            </Button>
            <FileInput
              value={file ? [file] : []}
              accept={CONTACT_LIST_FILE_EXTENSIONS.join(',')}
              onChange={({ detail }) => {
                const chosen = detail.value[0];
                if (!chosen) return;
                setFile(chosen);
                void startImport(chosen);
              }}
            >
              {t('contactLists.items.import.button')}
            </FileInput>
          </>
        }
        endTestId="contact-list-items-end"
      />
    </SpaceBetween>
  );
}
