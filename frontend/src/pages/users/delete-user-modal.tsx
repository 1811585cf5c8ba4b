import { deleteUser, type User } from '@/api/users';
import { ConfirmDeleteModal } from '@/components/confirm-modal';

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
  return (
    <ConfirmDeleteModal
      section="users.delete"
      name={user.name}
      remove={() => deleteUser(user.id)}
      onDismiss={onDismiss}
      onDeleted={() => onDeleted(user.id)}
    />
  );
}
