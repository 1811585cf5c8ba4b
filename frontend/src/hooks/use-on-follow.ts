import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';

/** The detail Cloudscape's Link, Button, SideNavigation, BreadcrumbGroup, ... send with `onFollow`. */
export interface FollowDetail {
  href?: string | undefined;
  external?: boolean;
}

/**
 * Router-aware Cloudscape links: pass the result as `onFollow` to any Cloudscape component with an `href`.
 * A plain click navigates inside the app (no page load); Cloudscape only fires onFollow for plain left
 * clicks, so ctrl/cmd-click still opens a new tab, and external links keep the browser's behaviour.
 */
export function useOnFollow(): (event: CustomEvent<FollowDetail>) => void {
  const navigate = useNavigate();
  return useCallback(
    (event: CustomEvent<FollowDetail>) => {
      const { href, external } = event.detail;
      if (external === true || href === undefined) return;
      event.preventDefault();
      void navigate(href);
    },
    [navigate],
  );
}
