import Tabs from '@cloudscape-design/components/tabs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuthUser } from '@/api/auth';
import { avatarUrl, createUser, getUser, updateUser, uploadAvatar, type NewUserInput, type User } from '@/api/users';
import { useAppServices } from '@/app-services';
import { FormModal, FormModalLoading } from '@/components/form-modal/form-modal';
import { pageReload } from '@/hooks/page-reload';
import { useRequest } from '@/hooks/use-request';
import { isAdmin, NEW_USER, toInput, userSchema, valuesOf, type FormMode, type UserFormValues } from './user-form';
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

function UserForm({
  user,
  currentUser,
  onDismiss,
  onSaved,
  reloadPage,
}: Omit<UserDialogProps, 'userId'> & { user: User | undefined }) {
  const { t } = useTranslation();
  const { config } = useAppServices();
  const creating = user === undefined;
  const admin = isAdmin(currentUser);
  const mode: FormMode = useMemo(() => ({ creating, admin }), [creating, admin]);
  const schema = useMemo(() => userSchema(mode), [mode]);
  const [tab, setTab] = useState<TabId>('general');

  const save = async (values: UserFormValues): Promise<User> => {
    const input = toInput(values, mode);
    let saved = user ? await updateUser(user.id, input) : await createUser(input as NewUserInput);
    if (values.avatar) {
      try {
        saved = await uploadAvatar(saved.id, values.avatar);
      } catch (err) {
        // Core spec §8: an image upload failure is only logged; the user itself is saved.
        console.error('avatar upload failed', err);
      }
    }
    return saved;
  };

  return (
    <FormModal
      size="large"
      title={mode.creating ? t('users.dialog.addTitle') : t('users.dialog.editTitle')}
      initial={user ? valuesOf(user) : NEW_USER}
      schema={schema}
      // A wrong picture is flagged as soon as it is chosen: nothing else about it can be fixed later.
      checkAtOnce={['avatar']}
      // Every rule is on the general tab.
      onInvalid={() => setTab('general')}
      onSubmit={(_parsed, values) => save(values)}
      savedText={t('users.dialog.saved')}
      onSaved={(saved) => {
        onSaved?.(saved);
        if (saved.id === currentUser.id) (reloadPage ?? (() => pageReload.reload()))();
      }}
      onDismiss={onDismiss}
      submitText={mode.creating ? t('users.dialog.add') : t('users.dialog.save')}
      cancelText={t('users.dialog.cancel')}
    >
      {(form) => {
        const general = (
          <UserGeneralFields
            form={form}
            creating={mode.creating}
            admin={mode.admin}
            currentAvatarUrl={avatarUrl(user?.profileImage, config.mediaBase)}
          />
        );
        if (!mode.admin) return general;
        return (
          <Tabs
            activeTabId={tab}
            onChange={({ detail }) => setTab(detail.activeTabId as TabId)}
            tabs={[
              { id: 'general', label: t('users.dialog.general'), content: general },
              {
                id: 'permissions',
                label: t('users.dialog.permissions'),
                content: <UserPermissionFields values={form.values} onChange={form.set} />,
              },
            ]}
          />
        );
      }}
    </FormModal>
  );
}

/** Loads the user to edit (fresh, not the list's copy) and then shows the form. */
function EditUser(props: UserDialogProps & { userId: number }) {
  const { t } = useTranslation();
  const { userId, onDismiss } = props;
  const user = useRequest((signal) => getUser(userId, { signal }), [userId]);
  if (user.status === 'ready') return <UserForm {...props} user={user.data} />;
  return (
    <FormModalLoading
      size="large"
      title={t('users.dialog.editTitle')}
      request={user}
      loadingText={t('users.dialog.loading')}
      errorHeader={t('users.dialog.loadError')}
      cancelText={t('users.dialog.cancel')}
      onDismiss={onDismiss}
    />
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
