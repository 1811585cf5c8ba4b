import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotifications } from './notifications';

/**
 * The product's "are you sure?" dialog (delete a user, delete or disconnect a connection, …): only the
 * confirm button acts; while it runs, neither cancel nor dismissing can close the dialog under it.
 */
export function ConfirmModal({
  header,
  children,
  cancelText,
  confirmText,
  running,
  onConfirm,
  onDismiss,
}: {
  header: string;
  children: ReactNode;
  cancelText: string;
  confirmText: string;
  /** The confirmed action is under way. */
  running: boolean;
  onConfirm: () => void;
  onDismiss: () => void;
}) {
  return (
    <Modal
      visible
      header={header}
      onDismiss={() => {
        if (!running) onDismiss();
      }}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" disabled={running} onClick={onDismiss}>
              {cancelText}
            </Button>
            <Button variant="primary" loading={running} onClick={onConfirm}>
              {confirmText}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      {children}
    </Modal>
  );
}

/**
 * "Delete {name}?" for any record: the texts come from one translation section (`<section>.title`, `.text`,
 * `.cancel`, `.confirm`, `.success`); a failure is a toast and closes the dialog, success calls onDeleted.
 */
export function ConfirmDeleteModal({
  section,
  name,
  remove,
  onDismiss,
  onDeleted,
}: {
  section: string;
  name: string;
  remove: () => Promise<unknown>;
  onDismiss: () => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const [deleting, setDeleting] = useState(false);
  const confirm = async () => {
    setDeleting(true);
    try {
      await remove();
      notify.success(t(`${section}.success`));
      onDeleted();
    } catch (err) {
      notify.error(err);
      onDismiss();
    }
  };
  return (
    <ConfirmModal
      header={t(`${section}.title`, { name })}
      cancelText={t(`${section}.cancel`)}
      confirmText={t(`${section}.confirm`)}
      running={deleting}
      onConfirm={() => void confirm()}
      onDismiss={onDismiss}
    >
      {t(`${section}.text`)}
    </ConfirmModal>
  );
}
