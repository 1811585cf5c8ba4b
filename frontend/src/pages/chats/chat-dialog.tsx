import Button from '@cloudscape-design/components/button';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import Multiselect from '@cloudscape-design/components/multiselect';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createChat, updateChat, type Chat } from '@/api/chats';
import { listUserNames } from '@/api/users';
import { useNotifications } from '@/components/notifications';
import { useRequest } from '@/hooks/use-request';

/**
 * New or edit chat (administration spec "Internal chat", §5): a title and a user picker (the company's users
 * other than the caller, who is always a member); save is disabled unless the title is not empty and at
 * least one user is chosen.
 */
export function ChatDialog({
  record,
  meId,
  onDismiss,
  onSaved,
}: {
  record: Chat | undefined;
  meId: number;
  onDismiss: () => void;
  onSaved: (saved: Chat) => void;
}) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const users = useRequest((signal) => listUserNames({ signal }), []);
  const [title, setTitle] = useState(record?.title ?? '');
  const [chosen, setChosen] = useState<{ id: number; name: string }[]>(
    (record?.users ?? []).filter((u) => u.userId !== meId).map((u) => ({ id: u.userId, name: u.user.name })),
  );
  const [saving, setSaving] = useState(false);
  const options = (users.status === 'ready' ? users.data : [])
    .filter((u) => u.id !== meId)
    .map((u) => ({ value: String(u.id), label: u.name }));
  const valid = title.trim().length > 0 && chosen.length > 0;

  const save = async () => {
    setSaving(true);
    try {
      const input = { title: title.trim(), users: chosen };
      const saved = record ? await updateChat(record.id, input) : await createChat(input);
      notify.success(t('chats.dialog.saved'));
      onSaved(saved);
    } catch (err) {
      notify.error(err);
      setSaving(false);
    }
  };

  return (
    <Modal
      visible
      header={record ? t('chats.dialog.editTitle') : t('chats.dialog.addTitle')}
      onDismiss={() => {
        if (!saving) onDismiss();
      }}
      footer={
        <SpaceBetween direction="horizontal" size="xs" alignItems="center">
          <Button variant="link" onClick={onDismiss} disabled={saving}>
            {t('chats.dialog.cancel')}
          </Button>
          <Button variant="primary" disabled={!valid} loading={saving} onClick={() => void save()}>
            {t('chats.dialog.save')}
          </Button>
        </SpaceBetween>
      }
    >
      <Form>
        <SpaceBetween size="m">
          <FormField label={t('chats.dialog.title')}>
            <Input value={title} onChange={({ detail }) => setTitle(detail.value)} />
          </FormField>
          <FormField label={t('chats.dialog.users')}>
            <Multiselect
              selectedOptions={chosen.map((u) => ({ value: String(u.id), label: u.name }))}
              options={options}
              statusType={users.status === 'loading' ? 'loading' : 'finished'}
              placeholder={t('chats.dialog.usersPlaceholder')}
              filteringType="auto"
              onChange={({ detail }) =>
                setChosen(detail.selectedOptions.map((o) => ({ id: Number(o.value), name: o.label ?? '' })))
              }
            />
          </FormField>
        </SpaceBetween>
      </Form>
    </Modal>
  );
}
