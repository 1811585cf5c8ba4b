import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Tabs from '@cloudscape-design/components/tabs';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuthUser } from '@/api/auth';
import { avatarUrl, createUser, getUser, updateUser, uploadAvatar, type NewUserInput, type User } from '@/api/users';
import { useAppServices } from '@/app-services';
import { useNotifications } from '@/components/notifications';
import { useErrorText } from '@/hooks/use-error-text';
import { useRequest } from '@/hooks/use-request';
import { pageReload } from '@/hooks/page-reload';
import { avatarError, isAdmin, NEW_USER, toInput, validateUser, valuesOf, type FormMode } from './user-form';
import { UserGeneralFields } from './user-general-fields';
import { UserPermissionFields } from './user-permission-fields';

export interface UserDialogProps {
  /** The user to edit; without it the dialog creates one. */
  userId?: number | undefined;
  /** Who is editing: decides the admin-only fields (spec §6) and whether saving reloads the page. */
  currentUser: Pick<AuthUser, 'id' | 'profile' | 'super'>;
  onDismiss: () => void;
  /** After a successful save, with the user as the server answered it (new picture included). */
  onSaved?: (user: User) => void;
  /** Saving your own user reloads the page (core spec §4); defaults to a real reload. */
  reloadPage?: () => void;
}

type TabId = 'general' | 'permissions';

function DialogFrame({
  title,
  footer,
  onDismiss,
  children,
}: {
  title: string;
  footer: ReactNode;
  onDismiss: () => void;
  children: ReactNode;
}) {
  return (
    <Modal visible size="large" header={title} footer={footer} onDismiss={onDismiss}>
      {children}
    </Modal>
  );
}

function CancelOnly({ onDismiss }: { onDismiss: () => void }) {
  const { t } = useTranslation();
  return (
    <Box float="right">
      <Button variant="link" onClick={onDismiss}>
        {t('users.dialog.cancel')}
      </Button>
    </Box>
  );
}

function UserForm({
  user,
  currentUser,
  onDismiss,
  onSaved,
  reloadPage,
}: Omit<UserDialogProps, 'userId'> & { user: User | undefined }) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const { config } = useAppServices();
  const mode: FormMode = { creating: user === undefined, admin: isAdmin(currentUser) };
  const [values, setValues] = useState(() => (user ? valuesOf(user) : NEW_USER));
  const [avatar, setAvatar] = useState<File | null>(null);
  const [tab, setTab] = useState<TabId>('general');
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);

  const errors = submitted ? validateUser(values, mode) : {};
  const translated = Object.fromEntries(Object.entries(errors).map(([field, key]) => [field, t(key)]));
  // A wrong picture is flagged as soon as it is chosen: nothing else about it can be fixed later.
  const avatarProblem = avatarError(avatar);

  const save = async () => {
    setSubmitted(true);
    if (Object.keys(validateUser(values, mode)).length > 0 || avatarProblem) {
      setTab('general');
      return;
    }
    setSaving(true);
    const input = toInput(values, mode);
    let saved: User;
    try {
      saved = user ? await updateUser(user.id, input) : await createUser(input as NewUserInput);
    } catch (err) {
      notify.error(err);
      setSaving(false);
      return;
    }
    if (avatar) {
      try {
        saved = await uploadAvatar(saved.id, avatar);
      } catch (err) {
        // Core spec §8: an image upload failure is only logged; the user itself is saved.
        console.error('avatar upload failed', err);
      }
    }
    notify.success(t('users.dialog.saved'));
    onSaved?.(saved);
    if (saved.id === currentUser.id) (reloadPage ?? (() => pageReload.reload()))();
  };

  const general = (
    <UserGeneralFields
      values={values}
      errors={translated}
      creating={mode.creating}
      admin={mode.admin}
      onChange={(change) => setValues((v) => ({ ...v, ...change }))}
      avatar={avatar}
      avatarErrorText={avatarProblem ? t(avatarProblem) : undefined}
      currentAvatarUrl={avatarUrl(user?.profileImage, config.mediaBase)}
      onAvatarChange={setAvatar}
    />
  );

  return (
    <DialogFrame
      title={mode.creating ? t('users.dialog.addTitle') : t('users.dialog.editTitle')}
      onDismiss={() => {
        if (!saving) onDismiss();
      }}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" disabled={saving} onClick={onDismiss}>
              {t('users.dialog.cancel')}
            </Button>
            <Button variant="primary" loading={saving} onClick={() => void save()}>
              {mode.creating ? t('users.dialog.add') : t('users.dialog.save')}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      {mode.admin ? (
        <Tabs
          activeTabId={tab}
          onChange={({ detail }) => setTab(detail.activeTabId as TabId)}
          tabs={[
            { id: 'general', label: t('users.dialog.general'), content: general },
            {
              id: 'permissions',
              label: t('users.dialog.permissions'),
              content: (
                <UserPermissionFields values={values} onChange={(change) => setValues((v) => ({ ...v, ...change }))} />
              ),
            },
          ]}
        />
      ) : (
        general
      )}
    </DialogFrame>
  );
}

/** Loads the user to edit (fresh, not the list's copy) and then shows the form. */
function EditUser(props: UserDialogProps & { userId: number }) {
  const { t } = useTranslation();
  const textOf = useErrorText();
  const { userId, onDismiss } = props;
  const user = useRequest((signal) => getUser(userId, { signal }), [userId]);
  if (user.status === 'ready') return <UserForm {...props} user={user.data} />;
  return (
    <DialogFrame
      title={t('users.dialog.editTitle')}
      onDismiss={onDismiss}
      footer={<CancelOnly onDismiss={onDismiss} />}
    >
      {user.status === 'loading' ? (
        <Box textAlign="center">
          <Spinner size="big" />
          <Box variant="span" margin={{ left: 's' }}>
            {t('users.dialog.loading')}
          </Box>
        </Box>
      ) : (
        <Alert
          type="error"
          header={t('users.dialog.loadError')}
          action={<Button onClick={user.reload}>{t('common.retry')}</Button>}
        >
          {textOf(user.error)}
        </Alert>
      )}
    </DialogFrame>
  );
}

/**
 * The user dialog (core spec §2 Users list, §3, §5, §6): tabs general and permissions for admins, the
 * general fields alone for a plain user editing themself. Mount it to open it; it closes through
 * `onDismiss` (the caller unmounts it, which also resets it). Saving shows 'user saved', uploads a chosen
 * picture afterwards, and reloads the page when the user saved is the one signed in. The app shell's
 * profile menu reuses it with the signed-in user's id.
 */
export function UserDialog(props: UserDialogProps) {
  const { userId } = props;
  return userId === undefined ? <UserForm {...props} user={undefined} /> : <EditUser {...props} userId={userId} />;
}
