import Button from '@cloudscape-design/components/button';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Cloudscape's own colour variables (its base theme sets them per light / dark mode and per theme), so the
 * frame matches the components inside it; AppLayout painted the same ones. Their names carry a hash of the
 * Cloudscape version: after an upgrade renames them, the fallbacks (the same colours, light then dark) apply.
 */
const LAYOUT_BACKGROUND = '--color-background-layout-main-y4565g';
const PANEL_BACKGROUND = '--color-background-container-content-mjfil9';
const DIVIDER = '--color-border-divider-default-diwd4w';

export const SHELL_LAYOUT_CSS = `
.zd-shell-frame { display: flex; flex-direction: column; height: 100vh; height: 100dvh; background: var(${LAYOUT_BACKGROUND}, #ffffff); }
.awsui-dark-mode .zd-shell-frame { background: var(${LAYOUT_BACKGROUND}, #161d26); }
.zd-shell { display: flex; flex: 1 1 auto; min-height: 0; position: relative; }
.zd-shell-nav { flex: 0 0 280px; width: 280px; overflow-y: auto; border-right: 1px solid var(${DIVIDER}, #c6c6cd); background: var(${PANEL_BACKGROUND}, #ffffff); position: relative; }
.awsui-dark-mode .zd-shell-nav { border-right-color: var(${DIVIDER}, #424650); background: var(${PANEL_BACKGROUND}, #161d26); }
.zd-shell-nav-drawer { position: absolute; top: 0; bottom: 0; left: 0; z-index: 1001; width: min(280px, 85vw); box-shadow: 0 4px 20px rgba(0, 7, 22, 0.3); }
.zd-shell-backdrop { position: absolute; inset: 0; z-index: 1000; background: rgba(35, 43, 55, 0.5); }
.zd-shell-nav-close { position: absolute; top: 8px; right: 8px; z-index: 1; }
.zd-shell-rail { flex: 0 0 auto; padding: 8px 4px; border-right: 1px solid var(${DIVIDER}, #c6c6cd); }
.awsui-dark-mode .zd-shell-rail { border-right-color: var(${DIVIDER}, #424650); }
.zd-shell-main { flex: 1 1 auto; min-width: 0; overflow-y: auto; }
.zd-shell-notifications { padding: 12px 24px 0; }
.zd-shell-content { padding: 16px 24px 24px; }
@media (max-width: 599px) {
  .zd-shell-rail { position: absolute; top: 0; left: 0; z-index: 999; border-right: 0; padding: 4px; }
  .zd-shell-content { padding: 40px 12px 16px; }
  .zd-shell-notifications { padding: 40px 12px 0; }
  .zd-shell-notifications + .zd-shell-content { padding-top: 12px; }
}
`;

/**
 * The frame under the top bar: the side menu panel, the notices and the page (decisions D176). It replaces
 * Cloudscape's AppLayout, which carried every layout variant, its drawers and their drag-and-drop library
 * into the first screen (≈ 36 KB gzipped) for the three things the shell uses: a menu panel that opens and
 * closes, a notifications slot and the content. The frame is the window's height and the page scrolls
 * inside `main`, so the top bar stays and Cloudscape's sticky table headers stick under it, as in AppLayout.
 *
 * Wide screens: the menu is a column beside the page (closed: a slim rail with the open button). Narrow
 * screens (under 600 px, core spec §9): the menu is a drawer over the page, closed by its button, by the
 * backdrop or by following a link (the shell does that).
 */
export function ShellLayout({
  header,
  navigation,
  navigationOpen,
  onNavigationChange,
  narrow,
  notifications,
  children,
}: {
  /** The top bar, above the menu and the page. */
  header: ReactNode;
  navigation: ReactNode;
  navigationOpen: boolean;
  onNavigationChange: (open: boolean) => void;
  /** Under 600 px: the menu is a drawer over the page. */
  narrow: boolean;
  notifications?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="zd-shell-frame">
      <style href="zapdesk-shell-layout" precedence="default">
        {SHELL_LAYOUT_CSS}
      </style>
      {header}
      <div className="zd-shell">
        {navigationOpen ? (
          <>
            {narrow && (
              <div className="zd-shell-backdrop" aria-hidden="true" onClick={() => onNavigationChange(false)} />
            )}
            <nav
              className={narrow ? 'zd-shell-nav zd-shell-nav-drawer' : 'zd-shell-nav'}
              aria-label={t('shell.navigation')}
              data-testid="shell-navigation"
            >
              <div className="zd-shell-nav-close">
                <Button
                  variant="icon"
                  iconName={narrow ? 'close' : 'angle-left'}
                  ariaLabel={t('shell.closeNavigation')}
                  onClick={() => onNavigationChange(false)}
                />
              </div>
              {navigation}
            </nav>
          </>
        ) : (
          <div className="zd-shell-rail">
            <Button
              variant="icon"
              iconName="menu"
              ariaLabel={t('shell.openNavigation')}
              onClick={() => onNavigationChange(true)}
            />
          </div>
        )}
        <main className="zd-shell-main">
          {notifications && <div className="zd-shell-notifications">{notifications}</div>}
          <div className="zd-shell-content">{children}</div>
        </main>
      </div>
    </div>
  );
}
