import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import SegmentedControl from '@cloudscape-design/components/segmented-control';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listSchedulesOfPeriod, type Schedule } from '@/api/schedules';
import { useChannel, useOnReconnect } from '@/realtime/use-socket';

export type CalendarView = 'month' | 'week' | 'day';

const two = (n: number) => String(n).padStart(2, '0');
const keyOf = (d: Date) => `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
const dateOf = (key: string) => new Date(`${key}T00:00:00.000Z`);
const plusDays = (key: string, n: number) => keyOf(new Date(dateOf(key).getTime() + n * 86_400_000));

/** The days a view shows around `anchor` (`YYYY-MM-DD`): whole weeks of the month, the week, or the day. */
export const visibleDays = (view: CalendarView, anchor: string): string[] => {
  if (view === 'day') return [anchor];
  const start = view === 'week' ? anchor : `${anchor.slice(0, 7)}-01`;
  const first = plusDays(start, -dateOf(start).getUTCDay());
  if (view === 'week') return Array.from({ length: 7 }, (_, i) => plusDays(first, i));
  const month = anchor.slice(0, 7);
  const days: string[] = [];
  for (let d = first; days.length < 42; d = plusDays(d, 1)) {
    days.push(d);
    if (days.length % 7 === 0 && plusDays(d, 1).slice(0, 7) > month) break;
  }
  return days;
};

/** The local periods (`YYYY-MM`, or the day) to read for the days shown: one Query prefix each. */
export const periodsOf = (view: CalendarView, days: string[]): string[] =>
  view === 'day' ? days : [...new Set(days.map((d) => d.slice(0, 7)))];

/** Where `anchor` moves with previous/next. */
export const stepAnchor = (view: CalendarView, anchor: string, step: 1 | -1): string => {
  if (view === 'day') return plusDays(anchor, step);
  if (view === 'week') return plusDays(anchor, 7 * step);
  const d = dateOf(`${anchor.slice(0, 7)}-01`);
  d.setUTCMonth(d.getUTCMonth() + step);
  return keyOf(d);
};

export const todayKey = (now = new Date()) => `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;

/**
 * The schedules calendar (administration §2 Schedules): month, week and day views built from Cloudscape
 * primitives; events sit at their local send time (`sendAtLocal`), titled by the contact's name, with edit
 * and delete. It reads each shown month (or the day) by its local prefix and reads again on
 * `company{id}-schedule` events and socket reconnects.
 */
export function ScheduleCalendar({
  channel,
  onEdit,
  onRemove,
  editDisabled,
  initialAnchor,
}: {
  channel: string;
  onEdit: (s: Schedule) => void;
  onRemove: (s: Schedule) => void;
  editDisabled: (s: Schedule) => string | false;
  initialAnchor?: string;
}) {
  const { t, i18n } = useTranslation();
  const [view, setView] = useState<CalendarView>('month');
  const [anchor, setAnchor] = useState(initialAnchor ?? todayKey());
  const [events, setEvents] = useState<Schedule[]>([]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const days = useMemo(() => visibleDays(view, anchor), [view, anchor]);
  const periods = useMemo(() => periodsOf(view, days).join(','), [view, days]);

  const load = useCallback(
    async (signal?: AbortSignal) => {
      setStatus('loading');
      try {
        const lists = await Promise.all(
          periods.split(',').map((p) => listSchedulesOfPeriod(p, signal ? { signal } : {})),
        );
        if (signal?.aborted) return;
        setEvents(lists.flat());
        setStatus('ready');
      } catch {
        if (!signal?.aborted) setStatus('error');
      }
    },
    [periods],
  );
  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);
  useChannel(channel, () => void load());
  useOnReconnect(() => void load());

  const byDay = new Map<string, Schedule[]>();
  for (const e of [...events].sort((a, b) => a.sendAtLocal.localeCompare(b.sendAtLocal))) {
    const day = e.sendAtLocal.slice(0, 10);
    byDay.set(day, [...(byDay.get(day) ?? []), e]);
  }
  const locale = i18n.language || 'pt';
  const title =
    view === 'day'
      ? dateOf(anchor).toLocaleDateString(locale, { timeZone: 'UTC', dateStyle: 'full' })
      : dateOf(view === 'week' ? days[0]! : anchor).toLocaleDateString(locale, {
          timeZone: 'UTC',
          month: 'long',
          year: 'numeric',
        });
  const weekdays = days
    .slice(0, 7)
    .map((d) => dateOf(d).toLocaleDateString(locale, { timeZone: 'UTC', weekday: 'short' }));
  const columns = view === 'day' ? 1 : 7;

  return (
    <Container
      header={
        <Header
          variant="h2"
          actions={
            <SpaceBetween direction="horizontal" size="xs">
              <Button
                iconName="angle-left"
                ariaLabel={t('scheduledMessages.calendar.previous')}
                onClick={() => setAnchor(stepAnchor(view, anchor, -1))}
              />
              <Button onClick={() => setAnchor(todayKey())}>{t('scheduledMessages.calendar.today')}</Button>
              <Button
                iconName="angle-right"
                ariaLabel={t('scheduledMessages.calendar.next')}
                onClick={() => setAnchor(stepAnchor(view, anchor, 1))}
              />
              <SegmentedControl
                label={t('scheduledMessages.calendar.view')}
                selectedId={view}
                options={(['month', 'week', 'day'] as const).map((id) => ({
                  id,
                  text: t(`scheduledMessages.calendar.${id}`),
                }))}
                onChange={({ detail }) => setView(detail.selectedId as CalendarView)}
              />
            </SpaceBetween>
          }
        >
          <span data-testid="calendar-title">{title}</span>
        </Header>
      }
    >
      {status === 'error' && <StatusIndicator type="error">{t('scheduledMessages.loadError')}</StatusIndicator>}
      <div
        role="grid"
        aria-label={t('scheduledMessages.calendar.label')}
        aria-busy={status === 'loading'}
        style={{ display: 'grid', gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: 4 }}
      >
        {view !== 'day' &&
          weekdays.map((w) => (
            <Box key={w} variant="small" textAlign="center" fontWeight="bold">
              {w}
            </Box>
          ))}
        {days.map((day) => (
          <div
            key={day}
            role="gridcell"
            data-day={day}
            style={{
              minHeight: view === 'month' ? 88 : 220,
              padding: 4,
              border: '1px solid var(--color-border-divider-default-cg7ir3, #e9ebed)',
              borderRadius: 4,
              opacity: view === 'month' && day.slice(0, 7) !== anchor.slice(0, 7) ? 0.5 : 1,
            }}
          >
            <Box variant="small" fontWeight={day === todayKey() ? 'bold' : 'normal'}>
              {Number(day.slice(8))}
            </Box>
            {(byDay.get(day) ?? []).map((e) => {
              const locked = editDisabled(e);
              const name = e.contact?.name ?? '';
              return (
                <div key={e.id} data-schedule={e.id} style={{ display: 'flex', alignItems: 'center', gap: 2 }}>
                  <Box variant="small" color={e.status === 'ERRO' ? 'text-status-error' : 'inherit'}>
                    {e.sendAtLocal.slice(11, 16)} {name}
                  </Box>
                  <Button
                    variant="inline-icon"
                    iconName="edit"
                    ariaLabel={t('scheduledMessages.edit', { name })}
                    disabled={Boolean(locked)}
                    disabledReason={locked || undefined}
                    onClick={() => onEdit(e)}
                  />
                  <Button
                    variant="inline-icon"
                    iconName="remove"
                    ariaLabel={t('scheduledMessages.remove', { name })}
                    onClick={() => onRemove(e)}
                  />
                </div>
              );
            })}
          </div>
        ))}
      </div>
    </Container>
  );
}
