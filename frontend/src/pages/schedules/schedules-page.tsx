import Button from '@cloudscape-design/components/button';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { TableProps } from '@cloudscape-design/components/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { deleteSchedule, getScheduleContact, listSchedules, type Schedule } from '@/api/schedules';
import { ConfirmDeleteModal } from '@/components/confirm-modal';
import { ListPage } from '@/components/list-page/list-page';
import { channelChange, useLiveList } from '@/components/list-page/use-live-list';
import { useCurrentUser } from '@/components/shell/shell-context';
import { roleOf } from '@/permissions';
import { companyChannel } from '@contracts/realtime';
import { HolidaysDialog } from './holidays-dialog';
import { ScheduleCalendar } from './schedule-calendar';
import { ScheduleDialog } from './schedule-dialog';

/** The server's order without a search: newest send time first. */
const bySendAt = (a: Schedule, b: Schedule) => b.sendAtLocal.localeCompare(a.sendAtLocal) || b.id - a.id;
const scheduleChange = channelChange<Schedule>({ item: 'schedule', deletedId: 'scheduleId' });

/** `YYYY-MM-DDTHH:mm` → `dd/MM/yyyy HH:mm`. */
export const localText = (local: string) =>
  `${local.slice(8, 10)}/${local.slice(5, 7)}/${local.slice(0, 4)} ${local.slice(11, 16)}`;

const STATUS_TYPE = { PENDENTE: 'pending', ENVIADA: 'success', ERRO: 'error' } as const;

type Dialog = { record: Schedule | undefined; contact?: { id: number; name: string } };

/**
 * /schedules (administration §2 Schedules; decisions D118): the calendar (month, week, day) and the
 * searchable list of scheduled messages, both live from `company{id}-schedule`; `?contactId=` opens the add
 * dialog for that contact. A sent schedule can no longer be edited (§4).
 */
export function SchedulesPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const channel = companyChannel(user.companyId, 'schedule');
  const [params, setParams] = useSearchParams();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [deleting, setDeleting] = useState<Schedule | null>(null);
  const [holidaysOpen, setHolidaysOpen] = useState(false);
  const list = useLiveList({
    fetchPage: async (query, options) => {
      const page = await listSchedules(query, options);
      return { items: page.schedules, hasMore: page.hasMore, nextCursor: page.nextCursor };
    },
    compare: bySendAt,
    channel,
    change: scheduleChange,
  });

  const contactParam = Number(params.get('contactId'));
  useEffect(() => {
    if (!Number.isInteger(contactParam) || contactParam <= 0) return;
    const controller = new AbortController();
    getScheduleContact(contactParam, { signal: controller.signal })
      .then((c) => setDialog({ record: undefined, contact: { id: c.id, name: c.name } }))
      .catch(() => setDialog({ record: undefined }));
    return () => controller.abort();
  }, [contactParam]);
  const closeDialog = () => {
    setDialog(null);
    if (params.has('contactId')) setParams({}, { replace: true });
  };

  const locked = (s: Schedule): string | false => (s.sentAt ? t('scheduledMessages.sentLocked') : false);
  const columns: TableProps.ColumnDefinition<Schedule>[] = [
    {
      id: 'contact',
      header: t('scheduledMessages.columns.contact'),
      cell: (s) => s.contact?.name ?? '—',
      isRowHeader: true,
    },
    { id: 'sendAt', header: t('scheduledMessages.columns.sendAt'), cell: (s) => localText(s.sendAtLocal) },
    { id: 'body', header: t('scheduledMessages.columns.body'), cell: (s) => s.body.slice(0, 80) },
    {
      id: 'status',
      header: t('scheduledMessages.columns.status'),
      cell: (s) => (
        <StatusIndicator type={STATUS_TYPE[s.status]}>{t(`scheduledMessages.status.${s.status}`)}</StatusIndicator>
      ),
    },
    {
      id: 'repeat',
      header: t('scheduledMessages.columns.repeat'),
      cell: (s) =>
        s.enviarQuantasVezes > 1
          ? t('scheduledMessages.repeatText', {
              done: s.sentCount + s.missedCount,
              total: s.enviarQuantasVezes,
              every: s.valorIntervalo,
              unit: t(`scheduledMessages.intervalo.${s.intervalo}`),
            })
          : '—',
    },
  ];

  return (
    <SpaceBetween size="l">
      <ListPage
        list={list}
        section="scheduledMessages"
        counter={false}
        columns={columns}
        itemName={(s) => s.contact?.name ?? String(s.id)}
        form={({ item, onDismiss, onSaved }) => (
          <ScheduleDialog record={item} onDismiss={onDismiss} onSaved={onSaved} />
        )}
        remove={(s) => deleteSchedule(s.id)}
        editDisabled={locked}
        endTestId="schedules-list-end"
      />
      <Button iconName="calendar" onClick={() => setHolidaysOpen(true)}>
        {t('scheduledMessages.holidays.open')}
      </Button>
      {holidaysOpen && <HolidaysDialog editable={roleOf(user) === 'admin'} onDismiss={() => setHolidaysOpen(false)} />}
      <ScheduleCalendar
        channel={channel}
        onEdit={(s) => setDialog({ record: s })}
        onRemove={setDeleting}
        editDisabled={locked}
      />
      {dialog && (
        <ScheduleDialog
          record={dialog.record}
          contact={dialog.contact}
          onDismiss={closeDialog}
          onSaved={(saved) => {
            list.upsert(saved);
            closeDialog();
          }}
        />
      )}
      {deleting && (
        <ConfirmDeleteModal
          section="scheduledMessages.delete"
          name={deleting.contact?.name ?? ''}
          remove={() => deleteSchedule(deleting.id)}
          onDismiss={() => setDeleting(null)}
          onDeleted={() => {
            list.remove(deleting.id);
            setDeleting(null);
          }}
        />
      )}
    </SpaceBetween>
  );
}
