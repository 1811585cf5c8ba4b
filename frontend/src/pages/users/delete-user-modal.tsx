import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteUser, type User } from '@/api/users';
import { useNotifications } from '@/components/notifications';

/** Asks before deleting a user; only 'Excluir' calls the server. */
export function DeleteUserModal({
  user,
  onDismiss,
  onDeleted,
}: {
  user: User;
  onDismiss: () => void;
  onDeleted: (id: number) => void;
}) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const [deleting, setDeleting] = useState(false);

  const confirm = async () => {
    setDeleting(true);
    try {
      await deleteUser(user.id);
      notify.success(t('users.delete.success'));
      onDeleted(user.id);
    } catch (err) {
      notify.error(err);
      onDismiss();
    }
  };

  return (
    <Modal
      visible
      header={t('users.delete.title', { name: user.name })}
      onDismiss={() => {
        if (!deleting) onDismiss();
      }}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" disabled={deleting} onClick={onDismiss}>
              {t('users.delete.cancel')}
            </Button>
            <Button variant="primary" loading={deleting} onClick={() => void confirm()}>
              {t('users.delete.confirm')}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      {t('users.delete.text')}
    </Modal>
  );
}
