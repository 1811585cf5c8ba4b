import ColumnLayout from '@cloudscape-design/components/column-layout';
import Toggle from '@cloudscape-design/components/toggle';
import { useTranslation } from 'react-i18next';
import type { Enabled } from '@/api/auth';
import type { UserFormValues } from './user-form';

type EnabledFlag =
  'allHistoric' | 'allUserChat' | 'userClosePendingTicket' | 'showDashboard' | 'allowRealTime' | 'allowConnections';

/** The per-user permission flags (core spec §6) in the order the product lists them. */
export const PERMISSION_FLAGS = [
  'allTicket',
  'allowGroup',
  'allHistoric',
  'allUserChat',
  'userClosePendingTicket',
  'showDashboard',
  'allowRealTime',
  'allowConnections',
] as const;

type Flag = (typeof PERMISSION_FLAGS)[number];

/**
 * Each flag is a switch; the wire keeps each one's own values (functions/http/users/index.ts): allTicket
 * 'enable'/'disable', allowGroup a boolean, the others 'enabled'/'disabled'.
 */
const isOn = (values: UserFormValues, flag: Flag): boolean => {
  if (flag === 'allTicket') return values.allTicket === 'enable';
  if (flag === 'allowGroup') return values.allowGroup;
  return values[flag] === 'enabled';
};

const changeFor = (flag: Flag, on: boolean): Partial<UserFormValues> => {
  if (flag === 'allTicket') return { allTicket: on ? 'enable' : 'disable' };
  if (flag === 'allowGroup') return { allowGroup: on };
  const value: Enabled = on ? 'enabled' : 'disabled';
  return { [flag as EnabledFlag]: value };
};

/** The permissions tab of the user dialog: admins only (spec §6). */
export function UserPermissionFields({
  values,
  onChange,
}: {
  values: UserFormValues;
  onChange: (change: Partial<UserFormValues>) => void;
}) {
  const { t } = useTranslation();
  return (
    <ColumnLayout columns={2}>
      {PERMISSION_FLAGS.map((flag) => (
        <Toggle
          key={flag}
          checked={isOn(values, flag)}
          description={t(`users.flags.${flag}.description`)}
          onChange={({ detail }) => onChange(changeFor(flag, detail.checked))}
        >
          {t(`users.flags.${flag}.label`)}
        </Toggle>
      ))}
    </ColumnLayout>
  );
}
