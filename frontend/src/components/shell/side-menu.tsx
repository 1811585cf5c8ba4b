import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import SideNavigation, { type SideNavigationProps } from '@cloudscape-design/components/side-navigation';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { FollowDetail } from '@/hooks/use-on-follow';
import { AFTER_LOGIN_PATH } from '@/paths';
import { useAppName } from '@/branding';
import { linksOf, type MenuEntry, type MenuGroup, type MenuLink } from './menu';

const toLink = (entry: MenuLink, t: TFunction): SideNavigationProps.Link => ({
  type: 'link',
  text: t(`menu.${entry.id}`),
  href: entry.href,
  ...(entry.attention
    ? {
        info: (
          <Badge color="severity-high">
            <span aria-label={t('shell.needsAttention')}>!</span>
          </Badge>
        ),
      }
    : {}),
});

const toGroup = (group: MenuGroup, t: TFunction): SideNavigationProps.ExpandableLinkGroup => ({
  type: 'expandable-link-group',
  text: t(`menu.${group.id}`),
  href: group.href,
  items: group.items.map((item) => toLink(item, t)),
});

const toItems = (menu: MenuEntry[], t: TFunction): SideNavigationProps.Item[] =>
  menu.map((entry): SideNavigationProps.Item => {
    if (entry.type === 'link') return toLink(entry, t);
    if (entry.type === 'group') return toGroup(entry, t);
    return {
      type: 'section',
      text: t(`menu.${entry.id}`),
      items: entry.items.map((item) => (item.type === 'group' ? toGroup(item, t) : toLink(item, t))),
    };
  });

/**
 * The link of the menu the current page belongs to: the longest menu href that starts the path
 * (`/tickets/abc` -> `/tickets`), so pages below an entry keep it highlighted.
 */
export const activeHrefFor = (menu: MenuEntry[], pathname: string): string => {
  const hrefs = linksOf(menu)
    .map((l) => l.href)
    .filter((href) => (href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`)));
  return hrefs.sort((a, b) => b.length - a.length)[0] ?? pathname;
};

/** The side menu drawn from menuFor's model, with the version text at its bottom (core spec §2). */
export function SideMenu({
  menu,
  pathname,
  version,
  onFollow,
}: {
  menu: MenuEntry[];
  pathname: string;
  version: string | undefined;
  onFollow: (event: CustomEvent<FollowDetail>) => void;
}) {
  const appName = useAppName();
  const { t } = useTranslation();
  return (
    <>
      <SideNavigation
        header={{ text: appName, href: AFTER_LOGIN_PATH }}
        activeHref={activeHrefFor(menu, pathname)}
        items={toItems(menu, t)}
        onFollow={onFollow}
      />
      {version !== undefined && (
        <Box padding={{ horizontal: 'l', vertical: 'm' }} color="text-body-secondary" fontSize="body-s">
          <span data-testid="app-version">{t('shell.version', { version })}</span>
        </Box>
      )}
    </>
  );
}
