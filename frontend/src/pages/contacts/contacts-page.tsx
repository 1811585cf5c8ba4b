import Badge from '@cloudscape-design/components/badge';
import Button from '@cloudscape-design/components/button';
import ButtonDropdown from '@cloudscape-design/components/button-dropdown';
import Multiselect, { type MultiselectProps } from '@cloudscape-design/components/multiselect';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { TableProps } from '@cloudscape-design/components/table';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { deleteContact, listContacts, setContactActive, type Contact } from '@/api/contacts';
import { listTags, type Tag } from '@/api/tags';
import { ListPage } from '@/components/list-page/list-page';
import { channelChange, useLiveList } from '@/components/list-page/use-live-list';
import { useExportJob } from '@/components/export-progress';
import { useNotifications } from '@/components/notifications';
import { useCurrentUser } from '@/components/shell/shell-context';
import { can, roleOf } from '@/permissions';
import { useChannel } from '@/realtime/use-socket';
import { companyChannel } from '@contracts/realtime';
import { ContactDialog } from './contact-dialog';

/** The server's order (functions/core/contacts): by name's search form, then id. */
const searchForm = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
export const byName = (a: Contact, b: Contact): number => {
  const x = searchForm(a.name);
  const y = searchForm(b.name);
  return x < y ? -1 : x > y ? 1 : a.id - b.id;
};

const contactChange = channelChange<Contact>({ item: 'contact', deletedId: 'contactId' });

/**
 * /contacts (core spec §2 "Contacts list", §3, §5; decisions D42, D104): name, number, e-mail and tags of
 * the company's contacts by name, searched by name or number, filtered by tags, infinitely scrolled and kept
 * live from `company-{id}-contact`; add and edit (extra information), block or unblock, open a ticket (the
 * tickets screen's new-ticket dialog with the contact chosen), delete (contacts-page:deleteContact, admins),
 * and the import menu (spreadsheet: /contacts/import). A finished import reads the list again.
 */
export function ContactsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const notifications = useNotifications();
  const exporting = useExportJob();
  const [tags, setTags] = useState<Tag[]>([]);
  const [tagFilter, setTagFilter] = useState<readonly MultiselectProps.Option[]>([]);
  const tagIds = tagFilter.map((o) => Number(o.value));
  const mayDelete = can(roleOf(user), 'contacts-page:deleteContact');

  useEffect(() => {
    const controller = new AbortController();
    listTags({}, { signal: controller.signal }).then(setTags, () => setTags([]));
    return () => controller.abort();
  }, []);

  const list = useLiveList<Contact>({
    fetchPage: async (query, options) => {
      const page = await listContacts({ ...query, contactTag: tagIds }, options);
      return {
        items: page.contacts,
        hasMore: page.hasMore,
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      };
    },
    compare: byName,
    channel: companyChannel(user.companyId, 'contact'),
    change: contactChange,
  });

  // A new tag filter reads the list again from page 1.
  const tagKey = tagIds.join(',');
  const firstKey = useRef(tagKey);
  const { reset } = list;
  useEffect(() => {
    if (firstKey.current === tagKey) return;
    firstKey.current = tagKey;
    reset();
  }, [tagKey, reset]);

  useChannel(companyChannel(user.companyId, 'contactImport'), (event) => {
    if ((event.import as { status?: string } | undefined)?.status === 'done') reset();
  });

  const tagName = new Map(tags.map((tag) => [tag.id, tag]));
  const toggleBlock = async (contact: Contact) => {
    try {
      list.upsert(await setContactActive(contact.id, !contact.active));
      notifications.success(contact.active ? t('contacts.blocked') : t('contacts.unblocked'));
    } catch (err) {
      notifications.error(err);
    }
  };

  const columns: TableProps.ColumnDefinition<Contact>[] = [
    { id: 'name', header: t('contacts.columns.name'), cell: (c) => c.name, isRowHeader: true },
    { id: 'number', header: t('contacts.columns.number'), cell: (c) => c.number || '—' },
    { id: 'email', header: t('contacts.columns.email'), cell: (c) => c.email || '—' },
    {
      id: 'tags',
      header: t('contacts.columns.tags'),
      cell: (c) => (
        <SpaceBetween direction="horizontal" size="xxs">
          {c.tags.map(({ id }) => tagName.get(id)).map((tag) => tag && <Badge key={tag.id}>{tag.name}</Badge>)}
        </SpaceBetween>
      ),
    },
    {
      id: 'status',
      header: t('contacts.columns.status'),
      cell: (c) => (c.active ? t('contacts.active') : <Badge color="red">{t('contacts.blockedBadge')}</Badge>),
    },
    {
      id: 'more',
      header: t('contacts.columns.more'),
      cell: (c) => (
        <SpaceBetween direction="horizontal" size="xxs">
          <Button
            variant="icon"
            iconName="contact"
            ariaLabel={t('contacts.openTicket', { name: c.name })}
            disabled={!c.active}
            onClick={() => void navigate('/tickets', { state: { newTicketContact: c } })}
          />
          <Button
            variant="icon"
            iconName={c.active ? 'lock-private' : 'unlocked'}
            ariaLabel={t(c.active ? 'contacts.block' : 'contacts.unblock', { name: c.name })}
            onClick={() => void toggleBlock(c)}
          />
        </SpaceBetween>
      ),
    },
  ];

  return (
    <SpaceBetween size="m">
      {exporting.panel}
      <ListPage
        list={list}
        section="contacts"
        columns={columns}
        itemName={(c) => c.name}
        form={({ item, onDismiss, onSaved }) => <ContactDialog record={item} onDismiss={onDismiss} onSaved={onSaved} />}
        {...(mayDelete ? { remove: (c: Contact) => deleteContact(c.id) } : {})}
        headerActions={
          <>
            <div style={{ minWidth: 220 }}>
              <Multiselect
                selectedOptions={tagFilter}
                onChange={({ detail }) => setTagFilter(detail.selectedOptions)}
                options={tags.map((tag) => ({ value: String(tag.id), label: tag.name }))}
                placeholder={t('contacts.tagFilter')}
                ariaLabel={t('contacts.tagFilter')}
                filteringType="auto"
                hideTokens
              />
            </div>
            <ButtonDropdown
              items={[
                { id: 'sheet', text: t('contacts.importSheet') },
                { id: 'phone', text: t('contacts.importPhone') },
                { id: 'xlsx', text: t('exports.contactsXlsx'), disabled: exporting.busy },
                { id: 'csv', text: t('exports.contactsCsv'), disabled: exporting.busy },
              ]}
              onItemClick={({ detail }) => {
                if (detail.id === 'sheet' || detail.id === 'phone') void navigate('/contacts/import');
                if (detail.id === 'xlsx' || detail.id === 'csv') {
                  void exporting.start({ kind: 'contacts', format: detail.id });
                }
              }}
            >
              {t('contacts.importExport')}
            </ButtonDropdown>
          </>
        }
        endTestId="contacts-list-end"
      />
    </SpaceBetween>
  );
}
