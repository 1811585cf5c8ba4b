import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getHolidays, saveHolidays, type HolidayView } from '@/api/schedules';
import { useNotifications } from '@/components/notifications';

/** `YYYY-MM-DD` → `dd/MM/yyyy`. */
const dayText = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;

/**
 * The holidays the business-day rules (tipoDias 5 and 6) skip, per year (decisions D120): Brazil's national
 * holidays until the company saves its own list for that year. Everyone sees them; admins add, remove and
 * save (PUT /schedule-holidays replaces the year's list).
 */
export function HolidaysDialog({ editable, onDismiss }: { editable: boolean; onDismiss: () => void }) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(thisYear);
  const [holidays, setHolidays] = useState<HolidayView[] | null>(null);
  const [source, setSource] = useState<'default' | 'company'>('default');
  const [date, setDate] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const [changed, setChanged] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    setHolidays(null);
    setChanged(false);
    getHolidays(year, { signal: controller.signal }).then(
      (answer) => {
        setHolidays(answer.holidays);
        setSource(answer.source);
      },
      () => setHolidays([]),
    );
    return () => controller.abort();
  }, [year]);

  const add = () => {
    if (!date.startsWith(`${year}-`)) return setError(t('scheduledMessages.holidays.wrongYear', { year }));
    if (name.trim().length === 0) return setError(t('scheduledMessages.holidays.nameRequired'));
    if (holidays?.some((h) => h.date === date)) return setError(t('scheduledMessages.holidays.duplicate'));
    setError('');
    setHolidays([...(holidays ?? []), { date, name: name.trim() }].sort((a, b) => a.date.localeCompare(b.date)));
    setDate('');
    setName('');
    setChanged(true);
  };

  const save = async () => {
    if (!holidays) return;
    setSaving(true);
    try {
      const saved = await saveHolidays(year, holidays);
      setHolidays(saved.holidays);
      setSource(saved.source);
      setChanged(false);
      notify.success(t('scheduledMessages.holidays.saved'));
    } catch (err) {
      notify.error(err);
    } finally {
      setSaving(false);
    }
  };

  const years = [thisYear - 1, thisYear, thisYear + 1, thisYear + 2].map((y) => ({
    value: String(y),
    label: String(y),
  }));
  return (
    <Modal
      visible
      size="medium"
      header={t('scheduledMessages.holidays.title')}
      onDismiss={onDismiss}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button onClick={onDismiss}>{t('scheduledMessages.holidays.close')}</Button>
            {editable && (
              <Button variant="primary" loading={saving} disabled={!changed} onClick={() => void save()}>
                {t('scheduledMessages.holidays.save')}
              </Button>
            )}
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <FormField label={t('scheduledMessages.holidays.year')} description={t(`scheduledMessages.holidays.${source}`)}>
          <Select
            selectedOption={years.find((y) => y.value === String(year)) ?? null}
            options={years}
            onChange={({ detail }) => setYear(Number(detail.selectedOption.value))}
          />
        </FormField>
        <Table
          variant="embedded"
          loading={holidays === null}
          loadingText={t('scheduledMessages.holidays.loading')}
          items={holidays ?? []}
          trackBy="date"
          empty={t('scheduledMessages.holidays.empty')}
          columnDefinitions={[
            { id: 'date', header: t('scheduledMessages.holidays.date'), cell: (h) => dayText(h.date) },
            { id: 'name', header: t('scheduledMessages.holidays.name'), cell: (h) => h.name },
            ...(editable
              ? [
                  {
                    id: 'remove',
                    header: '',
                    cell: (h: HolidayView) => (
                      <Button
                        variant="icon"
                        iconName="remove"
                        ariaLabel={t('scheduledMessages.holidays.remove', { name: h.name })}
                        onClick={() => {
                          setHolidays((holidays ?? []).filter((x) => x.date !== h.date));
                          setChanged(true);
                        }}
                      />
                    ),
                  },
                ]
              : []),
          ]}
        />
        {editable && (
          <SpaceBetween size="xs">
            {error && <Alert type="error">{error}</Alert>}
            <SpaceBetween direction="horizontal" size="xs" alignItems="end">
              <FormField label={t('scheduledMessages.holidays.date')}>
                <Input type={'date' as 'text'} value={date} onChange={({ detail }) => setDate(detail.value)} />
              </FormField>
              <FormField label={t('scheduledMessages.holidays.name')}>
                <Input value={name} onChange={({ detail }) => setName(detail.value)} />
              </FormField>
              <Button onClick={add}>{t('scheduledMessages.holidays.add')}</Button>
            </SpaceBetween>
          </SpaceBetween>
        )}
      </SpaceBetween>
    </Modal>
  );
}
