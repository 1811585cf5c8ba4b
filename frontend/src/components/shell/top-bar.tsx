import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ButtonDropdown from '@cloudscape-design/components/button-dropdown';
import Link from '@cloudscape-design/components/link';
import Popover from '@cloudscape-design/components/popover';
import Slider from '@cloudscape-design/components/slider';
import SpaceBetween from '@cloudscape-design/components/space-between';
import TopNavigation from '@cloudscape-design/components/top-navigation';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuthUser } from '@/api/auth';
import { NotificationsBell } from '@/components/ticket-notifications/notifications-bell';
import { AnnouncementsPopover } from '@/components/team/announcements-popover';
import { ChatsPopover } from '@/components/team/chats-popover';
import type { UnreadTicket } from '@/components/ticket-notifications/ticket-notifications';
import { useOnFollow } from '@/hooks/use-on-follow';
import { changeLanguage, DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, toLanguage } from '@/i18n';
import { AFTER_LOGIN_PATH } from '@/paths';
import { roleOf } from '@/permissions';
import { useAppLogo, useAppName } from '@/branding';
import { toggleTheme, useTheme } from '@/theme';
import { setVolume, useIsNarrowScreen, useVolume } from './preferences';
import { formatDueDate } from './subscription';

const BAR_STYLE: CSSProperties = {
  display: 'flex',
  alignItems: 'center',
  gap: 16,
  minHeight: 48,
  padding: '4px 16px',
};

const percent = (volume: number) => Math.round(volume * 100);

/** Ids of the account menu's language items: `language:pt`, ... */
const LANGUAGE_ITEM = 'language:';

/**
 * The top bar (core spec §2 'Top bar'): product name, greeting with the user's and the company's name
 * (admins also see the due date), theme toggle, volume slider, page refresh and the account menu (profile,
 * interface language, logout), and the ticket notifications bell when the shell passes `notifications`.
 * The menu toggle is the shell layout's own (shell-layout.tsx). The announcements and internal chats popovers sit beside the bell. Built as custom content because a slider cannot be a TopNavigation utility.
 */
export function TopBar({
  user,
  notifications,
  onProfile,
  onLogout,
  onReload = () => window.location.reload(),
  internalChat = false,
  expired = false,
}: {
  user: AuthUser;
  /** The plan has the internal chat: the chats popover shows. */
  internalChat?: boolean;
  /** The company's subscription expired: the server refuses these reads, so the popovers stay out. */
  expired?: boolean;
  /** Tickets with unseen news (ticket-notifications); no bell without it. */
  notifications?: UnreadTicket[];
  onProfile: () => void;
  onLogout: () => void;
  onReload?: () => void;
}) {
  const appName = useAppName();
  // The bar is dark in both themes (visualContext top-navigation): the logo for a dark background (D171).
  const logo = useAppLogo('dark');
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.resolvedLanguage) ?? DEFAULT_LANGUAGE;
  const theme = useTheme();
  const volume = useVolume();
  const narrow = useIsNarrowScreen();
  const onFollow = useOnFollow();
  const admin = roleOf(user) === 'admin';

  return (
    <div style={{ flex: '0 0 auto', zIndex: 1002 }}>
      <TopNavigation visualContext="top-navigation">
        <div style={BAR_STYLE}>
          <Link href={AFTER_LOGIN_PATH} onFollow={onFollow} variant="primary" fontSize="heading-m" color="inverted">
            {logo && <img src={logo} alt="" style={{ height: 28, verticalAlign: 'middle', marginRight: 8 }} />}
            {appName}
          </Link>
          {!narrow && (
            <div data-testid="shell-greeting" style={{ flex: '1 1 auto', minWidth: 0 }}>
              <Box color="inherit" fontSize="body-m">
                {t('shell.greeting', { name: user.name, company: user.company.name })}
                {admin && (
                  <Box variant="span" color="inherit" fontSize="body-s" padding={{ left: 's' }}>
                    {t('shell.dueDate', { date: formatDueDate(user.company.dueDate) })}
                  </Box>
                )}
              </Box>
            </div>
          )}
          <div style={{ marginLeft: 'auto' }}>
            <SpaceBetween direction="horizontal" size="xs" alignItems="center">
              {notifications && <NotificationsBell items={notifications} />}
              {/* Administration "Announcements" and "Internal chat" (decisions D144, D145). */}
              {!expired && <AnnouncementsPopover />}
              {!expired && internalChat && <ChatsPopover user={user} />}
              <Button
                variant="icon"
                iconName="light-dark"
                ariaLabel={theme === 'dark' ? t('shell.themeToLight') : t('shell.themeToDark')}
                onClick={toggleTheme}
              />
              <Popover
                triggerType="custom"
                position="bottom"
                size="medium"
                renderWithPortal
                header={t('shell.volume')}
                dismissAriaLabel={t('common.close')}
                content={
                  <Slider
                    min={0}
                    max={1}
                    step={0.1}
                    value={volume}
                    ariaLabel={t('shell.volume')}
                    valueFormatter={(value) => `${percent(value)}%`}
                    onChange={({ detail }) => setVolume(detail.value)}
                  />
                }
              >
                <Button
                  variant="icon"
                  iconName={volume === 0 ? 'audio-off' : volume < 0.5 ? 'audio-half' : 'audio-full'}
                  ariaLabel={t('shell.volumeButton', { percent: percent(volume) })}
                />
              </Popover>
              <Button variant="icon" iconName="refresh" ariaLabel={t('shell.refresh')} onClick={onReload} />
              <ButtonDropdown
                variant="icon"
                iconName="user-profile"
                ariaLabel={t('shell.account', { name: user.name })}
                expandToViewport
                items={[
                  { id: 'profile', text: t('shell.profile'), iconName: 'user-profile' },
                  {
                    text: t('language.label'),
                    items: LANGUAGES.map((lang) => ({
                      id: `${LANGUAGE_ITEM}${lang}`,
                      text: LANGUAGE_NAMES[lang],
                      lang,
                      itemType: 'checkbox' as const,
                      checked: lang === language,
                    })),
                  },
                  { id: 'logout', text: t('shell.logout'), iconName: 'sign-out' },
                ]}
                onItemClick={({ detail }) => {
                  const chosen = detail.id.startsWith(LANGUAGE_ITEM)
                    ? toLanguage(detail.id.slice(LANGUAGE_ITEM.length))
                    : undefined;
                  if (chosen) void changeLanguage(chosen);
                  else if (detail.id === 'logout') onLogout();
                  else if (detail.id === 'profile') onProfile();
                }}
              />
            </SpaceBetween>
          </div>
        </div>
      </TopNavigation>
    </div>
  );
}
