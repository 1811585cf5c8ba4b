import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { ReactNode } from 'react';

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
