import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import Table from '@cloudscape-design/components/table';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listTagContacts, removeTagContact, type Tag, type TagContactView } from '@/api/tags';
import { useNotifications } from '@/components/notifications';

/**
 * The contacts of a tag (administration §2 "A contacts-of-tag dialog lists id, name, number and a remove
 * button"): pages by cursor ('Carregar mais'), and each row's button takes the tag off the contact.
 */
export function TagContactsModal({ tag, onDismiss }: { tag: Tag; onDismiss: () => void }) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const [contacts, setContacts] = useState<TagContactView[]>([]);
  const [cursor, setCursor] = useState<string | undefined>();
  const [loading, setLoading] = useState(true);
  const [removing, setRemoving] = useState<number | null>(null);

  const load = useCallback(
    async (after: string | undefined, signal?: AbortSignal) => {
      setLoading(true);
      try {
        const page = await listTagContacts(tag.id, { cursor: after }, signal ? { signal } : {});
        setContacts((shown) => (after ? [...shown, ...page.contacts] : page.contacts));
        setCursor(page.hasMore ? page.nextCursor : undefined);
      } catch (err) {
        if (!signal?.aborted) notify.error(err);
      } finally {
        if (!signal?.aborted) setLoading(false);
      }
    },
    [tag.id, notify],
  );

  useEffect(() => {
    const controller = new AbortController();
    void load(undefined, controller.signal);
    return () => controller.abort();
  }, [load]);

  const remove = async (contact: TagContactView) => {
    setRemoving(contact.id);
    try {
      await removeTagContact(tag.id, contact.id);
      setContacts((shown) => shown.filter((c) => c.id !== contact.id));
      notify.success(t('tags.contacts.removed'));
    } catch (err) {
      notify.error(err);
    } finally {
      setRemoving(null);
    }
  };

  return (
    <Modal
      visible
      onDismiss={onDismiss}
      header={t('tags.contacts.title', { name: tag.name })}
      size="medium"
      footer={
        <Box float="right">
          <Button onClick={onDismiss}>{t('tags.contacts.close')}</Button>
        </Box>
      }
    >
      <Table
        variant="embedded"
        items={contacts}
        loading={loading && contacts.length === 0}
        loadingText={t('tags.contacts.loading')}
        empty={<Box textAlign="center">{t('tags.contacts.empty')}</Box>}
        columnDefinitions={[
          { id: 'id', header: t('tags.contacts.id'), cell: (c) => c.id, width: 80 },
          { id: 'name', header: t('tags.contacts.name'), cell: (c) => c.name, isRowHeader: true },
          { id: 'number', header: t('tags.contacts.number'), cell: (c) => c.number },
          {
            id: 'actions',
            header: t('tags.contacts.actions'),
            cell: (c) => (
              <Button
                variant="icon"
                iconName="remove"
                ariaLabel={t('tags.contacts.remove', { name: c.name })}
                loading={removing === c.id}
                onClick={() => void remove(c)}
              />
            ),
          },
        ]}
      />
      {cursor && (
        <Box textAlign="center" margin={{ top: 's' }}>
          <Button loading={loading} onClick={() => void load(cursor)}>
            {t('tags.contacts.more')}
          </Button>
        </Box>
      )}
    </Modal>
  );
}
