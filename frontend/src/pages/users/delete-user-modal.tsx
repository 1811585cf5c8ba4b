import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteUser, type User } from '@/api/users';
import { ConfirmModal } from '@/components/confirm-modal';
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
    <ConfirmModal
      header={t('users.delete.title', { name: user.name })}
      cancelText={t('users.delete.cancel')}
      confirmText={t('users.delete.confirm')}
      running={deleting}
      onConfirm={() => void confirm()}
      onDismiss={onDismiss}
    >
      {t('users.delete.text')}
    </ConfirmModal>
  );
}
