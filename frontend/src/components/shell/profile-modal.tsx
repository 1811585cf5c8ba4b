import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useTranslation } from 'react-i18next';
import type { AuthUser } from '@/api/auth';
import { LanguageSelect } from '@/components/language-select';
import { roleOf } from '@/permissions';

/**
 * The avatar menu's 'Perfil': who is signed in, and the interface language. Editing one's own user (name,
 * password, avatar) is the users area's dialog; this modal adds no route.
 */
export function ProfileModal({ user, visible, onClose }: { user: AuthUser; visible: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      visible={visible}
      onDismiss={onClose}
      header={t('shell.profileTitle')}
      closeAriaLabel={t('common.close')}
      footer={
        <Box float="right">
          <Button variant="primary" onClick={onClose}>
            {t('common.close')}
          </Button>
        </Box>
      }
    >
      <SpaceBetween size="l">
        <KeyValuePairs
          columns={2}
          items={[
            { label: t('shell.profileName'), value: user.name },
            { label: t('shell.profileEmail'), value: user.email },
            {
              label: t('shell.profileRole'),
              value: user.super
                ? t('shell.roleSuper')
                : t(roleOf(user) === 'admin' ? 'shell.roleAdmin' : 'shell.roleUser'),
            },
            { label: t('shell.profileCompany'), value: user.company.name },
          ]}
        />
        <FormField label={t('language.label')}>
          <LanguageSelect />
        </FormField>
      </SpaceBetween>
    </Modal>
  );
}
