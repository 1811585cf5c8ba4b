import Button from '@cloudscape-design/components/button';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { TableProps } from '@cloudscape-design/components/table';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { CONTACT_LIST_EXAMPLE_PATH, deleteContactList, listContactLists, type ContactList } from '@/api/contact-lists';
import { ListPage } from '@/components/list-page/list-page';
import { channelChange, useLiveList } from '@/components/list-page/use-live-list';
import { useCurrentUser } from '@/components/shell/shell-context';
import { companyChannel } from '@contracts/realtime';
import { ContactListDialog } from './contact-list-dialog';

/** The server's order: by name, accent- and case-insensitively. */
const byName = (a: ContactList, b: ContactList) =>
  a.name.localeCompare(b.name, 'pt', { sensitivity: 'base' }) || a.id - b.id;

const contactListChange = channelChange<ContactList>({ item: 'record', deletedId: 'id' });

export const itemsPath = (id: number) => `/contact-lists/${id}/contacts`;

/**
 * /contact-lists (administration spec "Contact lists"; decisions D122): searchable, infinite scroll; name,
 * contact count and the actions — download the example spreadsheet, open the list's contacts, edit,
 * delete — kept live from `company-{id}-ContactList`.
 */
export function ContactListsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const list = useLiveList({
    fetchPage: async (query, options) => {
      const page = await listContactLists(query, options);
      return { items: page.records, hasMore: page.hasMore, nextCursor: page.nextCursor };
    },
    compare: byName,
    channel: companyChannel(user.companyId, 'ContactList'),
    change: contactListChange,
  });

  const columns: TableProps.ColumnDefinition<ContactList>[] = [
    {
      id: 'name',
      header: t('contactLists.columns.name'),
      cell: (r) => (
        <Link
          href={itemsPath(r.id)}
          onFollow={(e) => {
            e.preventDefault();
            void navigate(itemsPath(r.id));
          }}
        >
          {r.name}
        </Link>
      ),
      isRowHeader: true,
    },
    { id: 'contactsCount', header: t('contactLists.columns.contactsCount'), cell: (r) => r.contactsCount },
    {
      id: 'open',
      header: t('contactLists.columns.more'),
      cell: (r) => (
        <SpaceBetween direction="horizontal" size="xxs">
          <Button
            variant="icon"
            iconName="download"
            href={CONTACT_LIST_EXAMPLE_PATH}
            ariaLabel={t('contactLists.example')}
          />
          <Button
            variant="icon"
            iconName="contact"
            ariaLabel={t('contactLists.open', { name: r.name })}
            onClick={() => void navigate(itemsPath(r.id))}
          />
        </SpaceBetween>
      ),
    },
  ];

  return (
    <ListPage
      list={list}
      section="contactLists"
      columns={columns}
      itemName={(r) => r.name}
      form={({ item, onDismiss, onSaved }) => (
        <ContactListDialog record={item} onDismiss={onDismiss} onSaved={onSaved} />
      )}
      remove={(r) => deleteContactList(r.id)}
      endTestId="contact-lists-end"
    />
  );
}
