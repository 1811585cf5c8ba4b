import type { AuthUser, Enabled } from './api/auth';

/**
 * The permission rules of core spec §6: the admin role has these, the user role none. Screens ask
 * `can(roleOf(user), 'contacts-page:deleteContact')`; the menu also raises a plain user to admin for single
 * areas (see `roleWith`).
 */
export const ADMIN_PERMISSIONS = [
  'dashboard:view',
  'drawer-admin-items:view',
  'tickets-manager:showall',
  'user-modal:editProfile',
  'user-modal:editQueues',
  'ticket-options:deleteTicket',
  'contacts-page:deleteContact',
  'connections-page:actionButtons',
  'connections-page:addConnection',
  'connections-page:editOrDeleteConnection',
  'tickets-manager:closeAll',
] as const;

export type Permission = (typeof ADMIN_PERMISSIONS)[number];
export type Role = 'admin' | 'user';

const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = { admin: ADMIN_PERMISSIONS, user: [] };

/** The user's role; the profile is compared case-insensitively, as the spec's client does in places. */
export const roleOf = (user: Pick<AuthUser, 'profile'>): Role =>
  String(user.profile).toLowerCase() === 'admin' ? 'admin' : 'user';

/** The role a plain user counts as where a per-user switch (showDashboard, allowRealTime, ...) is on. */
export const roleWith = (user: Pick<AuthUser, 'profile'>, grant: Enabled): Role =>
  roleOf(user) === 'admin' || grant === 'enabled' ? 'admin' : 'user';

export const can = (role: Role, permission: Permission): boolean => ROLE_PERMISSIONS[role].includes(permission);

/**
 * The role a user has on the connections page (core spec §6; decisions D22): admins and super users, and a
 * plain user with allowConnections enabled, count as admin there and get the `connections-page:*`
 * permissions; anyone else may not open the page.
 */
export const connectionsRoleOf = (user: Pick<AuthUser, 'profile' | 'super' | 'allowConnections'>): Role =>
  user.super ? 'admin' : roleWith(user, user.allowConnections);

/** May manage connections (open /connections; the side menu's attention badge is for them). */
export const canManageConnections = (user: Pick<AuthUser, 'profile' | 'super' | 'allowConnections'>): boolean =>
  can(connectionsRoleOf(user), 'connections-page:actionButtons');
