import ColumnLayout from '@cloudscape-design/components/column-layout';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Box from '@cloudscape-design/components/box';
import { useTranslation } from 'react-i18next';
import type { ScheduleEntry } from '@/api/queues';

export const WEEKDAYS_EN = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const WEEKDAYS_PT = [
  'Segunda-feira',
  'Terça-feira',
  'Quarta-feira',
  'Quinta-feira',
  'Sexta-feira',
  'Sábado',
  'Domingo',
];

/** The spec's default hours (admin spec §3): 08:00–12:00 and 13:00–18:00, every day of the week. */
export const defaultSchedules = (): ScheduleEntry[] =>
  WEEKDAYS_EN.map((weekdayEn, i) => ({
    weekday: WEEKDAYS_PT[i]!,
    weekdayEn,
    startTimeA: '08:00',
    endTimeA: '12:00',
    startTimeB: '13:00',
    endTimeB: '18:00',
  }));

/** Seven days whatever was stored: a missing day gets the default hours. */
export const sevenDays = (stored: readonly ScheduleEntry[] | undefined): ScheduleEntry[] =>
  defaultSchedules().map((day) => stored?.find((s) => s.weekdayEn === day.weekdayEn) ?? day);

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
/** '' (no shift) or HH:MM, as the server accepts. */
export const isTime = (value: string): boolean => value === '' || HHMM.test(value);

const SHIFT_FIELDS = ['startTimeA', 'endTimeA', 'startTimeB', 'endTimeB'] as const;
type ShiftField = (typeof SHIFT_FIELDS)[number];

/**
 * The service hours of the seven days (admin spec §3, §5): shifts A and B, HH:MM or empty. Changes go to
 * `onChange` only; the caller saves them (the queue dialog with the queue, settings on its own button).
 */
export function ScheduleEditor({
  schedules,
  onChange,
  errorOf,
}: {
  schedules: ScheduleEntry[];
  onChange: (schedules: ScheduleEntry[]) => void;
  /** A problem of one time (`schedules.2.startTimeA`), e.g. the server's. */
  errorOf?: (field: string) => string | undefined;
}) {
  const { t } = useTranslation();
  const set = (index: number, field: ShiftField, value: string) =>
    onChange(schedules.map((day, i) => (i === index ? { ...day, [field]: value } : day)));
  return (
    <SpaceBetween size="s">
      {schedules.map((day, index) => (
        <SpaceBetween key={day.weekdayEn} size="xxs">
          <Box variant="h4">{t(`schedules.days.${day.weekdayEn}`)}</Box>
          <ColumnLayout columns={4}>
            {SHIFT_FIELDS.map((field) => {
              const value = day[field];
              const label = t(`schedules.${field}`);
              return (
                <FormField
                  key={field}
                  label={label}
                  errorText={isTime(value) ? errorOf?.(`schedules.${index}.${field}`) : t('schedules.invalidTime')}
                >
                  <Input
                    value={value}
                    placeholder="HH:MM"
                    ariaLabel={`${t(`schedules.days.${day.weekdayEn}`)} ${label}`}
                    onChange={({ detail }) => set(index, field, detail.value)}
                  />
                </FormField>
              );
            })}
          </ColumnLayout>
        </SpaceBetween>
      ))}
    </SpaceBetween>
  );
}
