import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Popover from '@cloudscape-design/components/popover';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { ANNOUNCEMENT_CHANNEL } from '@contracts/realtime';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listAnnouncements, type Announcement } from '@/api/announcements';
import { useRequest } from '@/hooks/use-request';
import { PRIORITY_COLORS } from '@/pages/announcements/priority';
import { useChannel, useOnReconnect } from '@/realtime/use-socket';

/** The top bar's order: priority 1 first, then newest first (as the server answers). */
const byPriority = (a: Announcement, b: Announcement) =>
  a.priority - b.priority || b.createdAt.localeCompare(a.createdAt) || b.id - a.id;

/**
 * The active announcements, live from `company-announcement` (decisions D144): a create or update puts an
 * active one in its place and takes out one that became inactive; delete removes it.
 */
export function useLiveAnnouncements(): Announcement[] {
  const request = useRequest((signal) => listAnnouncements({}, { signal }), []);
  const [items, setItems] = useState<Announcement[]>([]);
  const loaded = request.status === 'ready' ? request.data : undefined;
  useEffect(() => {
    if (loaded) setItems([...loaded.records].sort(byPriority));
  }, [loaded]);
  useOnReconnect(request.reload);
  useChannel(ANNOUNCEMENT_CHANNEL, (event) => {
    const record = event.record as Announcement | undefined;
    const id = event.action === 'delete' ? (event.id as number | undefined) : record?.id;
    if (typeof id !== 'number') return;
    setItems((current) => {
      const others = current.filter((a) => a.id !== id);
      return event.action !== 'delete' && record?.status ? [...others, record].sort(byPriority) : others;
    });
  });
  return items;
}

/**
 * The top bar's announcements popover (core §2 top bar; administration "Announcements", §9): the active
 * announcements with their priority colour at the left (1 red, 2 orange, 3 grey), title, text and image,
 * and their number on the button; it updates live.
 */
export function AnnouncementsPopover() {
  const { t } = useTranslation();
  const items = useLiveAnnouncements();
  const count = items.length;
  return (
    <Popover
      triggerType="custom"
      position="bottom"
      size="large"
      fixedWidth
      renderWithPortal
      header={t('announcements.popover.header')}
      dismissAriaLabel={t('announcements.popover.close')}
      content={
        count === 0 ? (
          <Box color="text-status-inactive">{t('announcements.popover.empty')}</Box>
        ) : (
          <div style={{ maxHeight: '60vh', overflowY: 'auto' }}>
            <SpaceBetween size="s">
              {items.map((a) => (
                <div
                  key={a.id}
                  data-testid="announcement"
                  data-priority={a.priority}
                  style={{ borderLeft: `6px solid ${PRIORITY_COLORS[a.priority]}`, paddingLeft: 10 }}
                >
                  <Box fontWeight="bold">{a.title}</Box>
                  <Box variant="p">{a.text}</Box>
                  {a.mediaPath && (
                    <img
                      src={a.mediaPath}
                      alt={t('announcements.popover.image')}
                      style={{ maxWidth: '100%', maxHeight: 240, borderRadius: 4 }}
                    />
                  )}
                </div>
              ))}
            </SpaceBetween>
          </div>
        )
      }
    >
      <SpaceBetween direction="horizontal" size="xxxs" alignItems="center">
        <Button
          variant="icon"
          iconName="flag"
          ariaLabel={
            count > 0 ? t('announcements.popover.buttonWithCount', { count }) : t('announcements.popover.button')
          }
        />
        {count > 0 && (
          <span data-testid="announcements-count">
            <Badge color="blue">{count}</Badge>
          </span>
        )}
      </SpaceBetween>
    </Popover>
  );
}
