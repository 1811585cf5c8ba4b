import type { PlanFlag } from './shared/auth-context';

/**
 * The one route table. The CDK API stack (infra/stacks/api-stack.ts) creates one Lambda per area and one
 * HTTP API route per entry; the local gateway (infra/local/gateway.ts) matches requests against the same
 * entries. Each area's Lambda (functions/http/<area>/index.ts) exports a `handlers` map keyed by the
 * `handler` names used here; test/unit/routes.test.ts fails when a route names a handler that is missing.
 *
 * Paths are relative to the API base (`/api`), use API Gateway syntax (`{id}`) and carry no trailing
 * slash: the gateway and the router strip one, so the spec's `/users/` and `/users` are the same route.
 */

export const AREAS = [
  'system',
  'auth',
  'tags',
  'settings',
  'users',
  'connections',
  'contacts',
  'tickets',
  'queues',
  'messages',
  'quick-messages',
  'files',
  'dashboard',
  'exports',
  'schedules',
  'campaigns',
  'flows',
  'chats',
  'announcements',
  'helps',
  'billing',
  'integrations',
  'companies',
] as const;
export type Area = (typeof AREAS)[number];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route, checked in the handler stack before the handler runs:
 * - public: anyone, no token;
 * - user: any authenticated user of an active company;
 * - admin: profile admin (services refine further, e.g. per-user flags);
 * - super: the super user of company 1.
 */
export type { PlanFlag };

export type AuthLevel = 'public' | 'user' | 'admin' | 'super';

export interface RouteDef {
  method: HttpMethod;
  path: string;
  area: Area;
  /** Key in the area module's `handlers` map (kebab-case verb-noun, e.g. `get-version`). */
  handler: string;
  auth: AuthLevel;
  planFlag?: PlanFlag;
  /**
   * Callable by a company whose subscription has expired (dueDate passed). Every other authenticated route
   * answers 403 ERR_SUBSCRIPTION_EXPIRED with the due date
   * (docs/decisions/D18-sessions-request-context-login-limits.md).
   */
  allowExpired?: true;
  /**
   * The path carries secrets (the spec's `resetpasswords/{email}/{token}/{newPassword}`): our access log
   * names the route key only, never the path (docs/decisions/D20-password-reset.md).
   */
  secretPath?: true;
  /**
   * Served in AWS only by the external messages REST API (usage plan and API keys,
   * infra/stacks/external-api.ts), not by the HTTP API; the local gateway serves it at the same path with
   * the usage plan's throttle (decisions D123). Its bearer is a connection token, checked by the service.
   */
  external?: true;
}

export const ROUTES: readonly RouteDef[] = [
  { method: 'GET', path: '/version', area: 'system', handler: 'get-version', auth: 'public', allowExpired: true },

  { method: 'POST', path: '/auth/login', area: 'auth', handler: 'login', auth: 'public', allowExpired: true },
  {
    method: 'POST',
    path: '/auth/refresh_token',
    area: 'auth',
    handler: 'refresh-token',
    auth: 'public',
    allowExpired: true,
  },
  { method: 'DELETE', path: '/auth/logout', area: 'auth', handler: 'logout', auth: 'public', allowExpired: true },
  { method: 'POST', path: '/auth/signup', area: 'auth', handler: 'signup', auth: 'public' },
  { method: 'GET', path: '/auth/me', area: 'auth', handler: 'get-me', auth: 'user', allowExpired: true },
  {
    method: 'POST',
    path: '/forgetpassword/{email}',
    area: 'auth',
    handler: 'request-password-reset',
    auth: 'public',
    allowExpired: true,
  },
  {
    method: 'POST',
    path: '/resetpasswords/{email}/{token}/{newPassword}',
    area: 'auth',
    handler: 'reset-password',
    auth: 'public',
    allowExpired: true,
    secretPath: true,
  },

  { method: 'GET', path: '/users', area: 'users', handler: 'list-users', auth: 'admin' },
  { method: 'GET', path: '/users/list', area: 'users', handler: 'list-user-names', auth: 'user' },
  { method: 'GET', path: '/users/{id}', area: 'users', handler: 'get-user', auth: 'user' },
  { method: 'POST', path: '/users', area: 'users', handler: 'create-user', auth: 'admin' },
  { method: 'PUT', path: '/users/{id}', area: 'users', handler: 'update-user', auth: 'user' },
  { method: 'DELETE', path: '/users/{id}', area: 'users', handler: 'delete-user', auth: 'admin' },
  { method: 'POST', path: '/users/{id}/media-upload', area: 'users', handler: 'upload-user-avatar', auth: 'user' },

  // Contacts (core spec §7; decisions D42): company-wide, every user reads and edits; admins delete.
  { method: 'GET', path: '/contacts', area: 'contacts', handler: 'list-contacts', auth: 'user' },
  { method: 'GET', path: '/contacts/list', area: 'contacts', handler: 'list-contact-names', auth: 'user' },
  { method: 'GET', path: '/contacts/{id}', area: 'contacts', handler: 'get-contact', auth: 'user' },
  {
    method: 'GET',
    path: '/contacts/profile/{number}',
    area: 'contacts',
    handler: 'get-contact-profile',
    auth: 'user',
  },
  { method: 'POST', path: '/contacts', area: 'contacts', handler: 'create-contact', auth: 'user' },
  { method: 'PUT', path: '/contacts/{id}', area: 'contacts', handler: 'update-contact', auth: 'user' },
  { method: 'DELETE', path: '/contacts/{id}', area: 'contacts', handler: 'delete-contact', auth: 'admin' },
  { method: 'PUT', path: '/contacts/block/{id}', area: 'contacts', handler: 'block-contact', auth: 'user' },
  {
    method: 'PUT',
    path: '/contacts/toggleAcceptAudio/{id}',
    area: 'contacts',
    handler: 'toggle-contact-accept-audio',
    auth: 'user',
  },
  {
    method: 'PUT',
    path: '/contacts/toggleDisableBot/{id}',
    area: 'contacts',
    handler: 'toggle-contact-disable-bot',
    auth: 'user',
  },
  // Ticket notes (decisions D56): on tickets the caller may see; delete by the author or an admin.
  // Contact spreadsheet import (core §4, §7 /contacts/upload; decisions D104): presigned upload, preview, start.
  { method: 'POST', path: '/contacts/upload', area: 'contacts', handler: 'create-contact-upload', auth: 'user' },
  { method: 'GET', path: '/contacts/import/{importId}', area: 'contacts', handler: 'get-contact-import', auth: 'user' },
  {
    method: 'GET',
    path: '/contacts/import/{importId}/preview',
    area: 'contacts',
    handler: 'preview-contact-import',
    auth: 'user',
  },
  {
    method: 'POST',
    path: '/contacts/import/{importId}/start',
    area: 'contacts',
    handler: 'start-contact-import',
    auth: 'user',
  },
  // Import from the phone's address book or chats through the connection (core §7; decisions D148), and
  // the one-row import of the spec's browser-side import (POST /contactsImport; D149).
  { method: 'POST', path: '/contacts/import', area: 'contacts', handler: 'import-phone-contacts', auth: 'user' },
  { method: 'POST', path: '/contacts/import/chats', area: 'contacts', handler: 'import-chat-contacts', auth: 'user' },
  { method: 'POST', path: '/contactsImport', area: 'contacts', handler: 'import-contact-row', auth: 'user' },
  { method: 'POST', path: '/ticket-notes', area: 'contacts', handler: 'create-ticket-note', auth: 'user' },
  { method: 'DELETE', path: '/ticket-notes/{id}', area: 'contacts', handler: 'delete-ticket-note', auth: 'user' },
  { method: 'GET', path: '/ticket-notes/list', area: 'contacts', handler: 'list-ticket-notes', auth: 'user' },

  // Contact lists and their items (administration §7; decisions D122): admin screens (the profile user
  // sees no access, §6) of the campaigns plan flag, served by the contacts Lambda (it has the spreadsheet readers).
  {
    method: 'GET',
    path: '/contact-lists',
    area: 'contacts',
    handler: 'list-contact-lists',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'GET',
    path: '/contact-lists/list',
    area: 'contacts',
    handler: 'list-all-contact-lists',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'GET',
    path: '/contact-lists/{id}',
    area: 'contacts',
    handler: 'get-contact-list',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'POST',
    path: '/contact-lists',
    area: 'contacts',
    handler: 'create-contact-list',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'PUT',
    path: '/contact-lists/{id}',
    area: 'contacts',
    handler: 'update-contact-list',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'DELETE',
    path: '/contact-lists/{id}',
    area: 'contacts',
    handler: 'delete-contact-list',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'POST',
    path: '/contact-lists/{id}/upload',
    area: 'contacts',
    handler: 'upload-contact-list',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'GET',
    path: '/contact-list-items',
    area: 'contacts',
    handler: 'list-contact-list-items',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'GET',
    path: '/contact-list-items/{id}',
    area: 'contacts',
    handler: 'get-contact-list-item',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'POST',
    path: '/contact-list-items',
    area: 'contacts',
    handler: 'create-contact-list-item',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'PUT',
    path: '/contact-list-items/{id}',
    area: 'contacts',
    handler: 'update-contact-list-item',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'DELETE',
    path: '/contact-list-items/{id}',
    area: 'contacts',
    handler: 'delete-contact-list-item',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },

  // Messages (core spec §7; decisions D50–D54): the service checks the ticket's visibility and the rules.
  { method: 'GET', path: '/messages/{ticketUuid}', area: 'messages', handler: 'list-messages', auth: 'user' },
  { method: 'POST', path: '/messages/{ticketId}', area: 'messages', handler: 'send-message', auth: 'user' },
  {
    method: 'POST',
    path: '/messages/uploads/{ticketId}',
    area: 'messages',
    handler: 'create-message-upload',
    auth: 'user',
  },
  { method: 'POST', path: '/messages/edit/{id}', area: 'messages', handler: 'edit-message', auth: 'user' },
  { method: 'DELETE', path: '/messages/{id}', area: 'messages', handler: 'delete-message', auth: 'user' },
  { method: 'POST', path: '/message/forward', area: 'messages', handler: 'forward-message', auth: 'user' },
  {
    method: 'GET',
    path: '/messages/transcribeAudio/{file}',
    area: 'messages',
    handler: 'transcribe-audio',
    auth: 'user',
    planFlag: 'useOpenAi',
  },
  { method: 'POST', path: '/messages/lista/{id}', area: 'messages', handler: 'send-list-message', auth: 'user' },
  { method: 'POST', path: '/messages/copy/{id}', area: 'messages', handler: 'send-copy-message', auth: 'user' },
  { method: 'POST', path: '/messages/call/{id}', area: 'messages', handler: 'send-call-message', auth: 'user' },
  { method: 'POST', path: '/messages/URL/{id}', area: 'messages', handler: 'send-url-message', auth: 'user' },
  { method: 'POST', path: '/messages/PIX/{id}', area: 'messages', handler: 'send-pix-message', auth: 'user' },
  { method: 'GET', path: '/messages-allMe', area: 'messages', handler: 'count-messages', auth: 'user' },
  // The external messages API (administration §7; decisions D123): the connection's token as bearer.
  {
    method: 'POST',
    path: '/messages/send',
    area: 'messages',
    handler: 'send-external-message',
    auth: 'public',
    external: true,
  },

  { method: 'GET', path: '/queue', area: 'queues', handler: 'list-queues', auth: 'user' },
  { method: 'GET', path: '/queue/{id}', area: 'queues', handler: 'get-queue', auth: 'user' },
  // Queues and their chatbot trees (admin spec §2, §7; decisions D89): admins manage them.
  { method: 'POST', path: '/queue', area: 'queues', handler: 'create-queue', auth: 'admin' },
  { method: 'PUT', path: '/queue/{id}', area: 'queues', handler: 'update-queue', auth: 'admin' },
  { method: 'DELETE', path: '/queue/{id}', area: 'queues', handler: 'delete-queue', auth: 'admin' },
  { method: 'GET', path: '/chatbot/{id}', area: 'queues', handler: 'get-chatbot', auth: 'admin' },
  { method: 'POST', path: '/chatbot', area: 'queues', handler: 'create-chatbot', auth: 'admin' },
  { method: 'PUT', path: '/chatbot/{id}', area: 'queues', handler: 'update-chatbot', auth: 'admin' },
  { method: 'DELETE', path: '/chatbot/{id}', area: 'queues', handler: 'delete-chatbot', auth: 'admin' },

  { method: 'GET', path: '/tickets', area: 'tickets', handler: 'list-tickets', auth: 'user' },
  { method: 'GET', path: '/tickets/u/{uuid}', area: 'tickets', handler: 'get-ticket-by-uuid', auth: 'user' },
  { method: 'POST', path: '/tickets', area: 'tickets', handler: 'create-ticket', auth: 'user' },
  { method: 'PUT', path: '/tickets/{id}', area: 'tickets', handler: 'update-ticket', auth: 'user' },
  { method: 'DELETE', path: '/tickets/{id}', area: 'tickets', handler: 'delete-ticket', auth: 'admin' },
  { method: 'POST', path: '/tickets/closeAll', area: 'tickets', handler: 'close-all-tickets', auth: 'admin' },
  { method: 'GET', path: '/tickets-log/{ticketId}', area: 'tickets', handler: 'list-ticket-log', auth: 'user' },

  { method: 'GET', path: '/tags', area: 'tags', handler: 'list-tags', auth: 'user' },
  { method: 'POST', path: '/tags', area: 'tags', handler: 'create-tag', auth: 'user' },
  { method: 'GET', path: '/tags/{id}', area: 'tags', handler: 'get-tag', auth: 'user' },
  // Contact and ticket tags (core §7; decisions D55): any user for contacts (company-wide), tickets only
  // the ones the caller may see (the service checks through ticket-access).
  { method: 'GET', path: '/tags/list', area: 'tags', handler: 'list-tag-names', auth: 'user' },
  { method: 'POST', path: '/tags/sync', area: 'tags', handler: 'sync-contact-tags', auth: 'user' },
  { method: 'GET', path: '/contactTags/{contactId}', area: 'tags', handler: 'get-contact-tags', auth: 'user' },
  { method: 'DELETE', path: '/ticket-tags/{ticketId}', area: 'tags', handler: 'remove-ticket-tags', auth: 'user' },
  { method: 'PUT', path: '/ticket-tags/{ticketId}/{tagId}', area: 'tags', handler: 'add-ticket-tag', auth: 'user' },
  // Tag admin and the kanban board (administration §7; decisions D100–D102): any user edits tags like they
  // create them (D7); the board and its lanes need the plan's useKanban.
  { method: 'PUT', path: '/tags/{id}', area: 'tags', handler: 'update-tag', auth: 'user' },
  { method: 'DELETE', path: '/tags/{id}', area: 'tags', handler: 'delete-tag', auth: 'user' },
  { method: 'GET', path: '/tags/{id}/contacts', area: 'tags', handler: 'list-tag-contacts', auth: 'user' },
  {
    method: 'DELETE',
    path: '/tags-contacts/{tagId}/{contactId}',
    area: 'tags',
    handler: 'remove-tag-contact',
    auth: 'user',
  },
  {
    method: 'GET',
    path: '/tag/kanban',
    area: 'tags',
    handler: 'list-kanban-lanes',
    auth: 'user',
    planFlag: 'useKanban',
  },
  {
    method: 'GET',
    path: '/ticket/kanban',
    area: 'tags',
    handler: 'list-kanban-tickets',
    auth: 'user',
    planFlag: 'useKanban',
  },

  // Quick replies (administration spec; decisions D58–D59): every user keeps their own; shared ones are
  // seen by all; the service decides who may change which.
  { method: 'GET', path: '/quick-messages', area: 'quick-messages', handler: 'list-quick-messages', auth: 'user' },
  {
    method: 'GET',
    path: '/quick-messages/list',
    area: 'quick-messages',
    handler: 'list-composer-quick-messages',
    auth: 'user',
  },
  { method: 'GET', path: '/quick-messages/{id}', area: 'quick-messages', handler: 'get-quick-message', auth: 'user' },
  { method: 'POST', path: '/quick-messages', area: 'quick-messages', handler: 'create-quick-message', auth: 'user' },
  {
    method: 'PUT',
    path: '/quick-messages/{id}',
    area: 'quick-messages',
    handler: 'update-quick-message',
    auth: 'user',
  },
  {
    method: 'DELETE',
    path: '/quick-messages/{id}',
    area: 'quick-messages',
    handler: 'delete-quick-message',
    auth: 'user',
  },
  {
    method: 'POST',
    path: '/quick-messages/{id}/media-upload',
    area: 'quick-messages',
    handler: 'upload-quick-message-media',
    auth: 'user',
  },
  {
    method: 'DELETE',
    path: '/quick-messages/{id}/media-upload',
    area: 'quick-messages',
    handler: 'delete-quick-message-media',
    auth: 'user',
  },

  // Scheduled messages (administration §2 Schedules, §7; decisions D118–D120): a plain user sees and
  // changes their own, an admin every one of the company; the holidays their business-day rules read.
  {
    method: 'GET',
    path: '/schedules',
    area: 'schedules',
    handler: 'list-schedules',
    auth: 'user',
    planFlag: 'useSchedules',
  },
  {
    method: 'GET',
    path: '/schedules/{id}',
    area: 'schedules',
    handler: 'get-schedule',
    auth: 'user',
    planFlag: 'useSchedules',
  },
  {
    method: 'POST',
    path: '/schedules',
    area: 'schedules',
    handler: 'create-schedule',
    auth: 'user',
    planFlag: 'useSchedules',
  },
  {
    method: 'PUT',
    path: '/schedules/{id}',
    area: 'schedules',
    handler: 'update-schedule',
    auth: 'user',
    planFlag: 'useSchedules',
  },
  {
    method: 'DELETE',
    path: '/schedules/{id}',
    area: 'schedules',
    handler: 'delete-schedule',
    auth: 'user',
    planFlag: 'useSchedules',
  },
  {
    method: 'POST',
    path: '/schedules/{id}/media-upload',
    area: 'schedules',
    handler: 'upload-schedule-media',
    auth: 'user',
    planFlag: 'useSchedules',
  },
  {
    method: 'DELETE',
    path: '/schedules/{id}/media-upload',
    area: 'schedules',
    handler: 'delete-schedule-media',
    auth: 'user',
    planFlag: 'useSchedules',
  },
  {
    method: 'GET',
    path: '/schedule-holidays',
    area: 'schedules',
    handler: 'get-schedule-holidays',
    auth: 'user',
    planFlag: 'useSchedules',
  },
  {
    method: 'PUT',
    path: '/schedule-holidays',
    area: 'schedules',
    handler: 'save-schedule-holidays',
    auth: 'admin',
    planFlag: 'useSchedules',
  },

  {
    method: 'GET',
    path: '/companySettings/{companyId}',
    area: 'settings',
    handler: 'get-company-settings',
    auth: 'user',
  },
  { method: 'GET', path: '/companySettingOne', area: 'settings', handler: 'get-company-setting-one', auth: 'user' },
  { method: 'PUT', path: '/companySettings', area: 'settings', handler: 'update-company-setting', auth: 'admin' },
  { method: 'GET', path: '/settings', area: 'settings', handler: 'list-settings', auth: 'super' },
  { method: 'GET', path: '/setting/{key}', area: 'settings', handler: 'get-setting', auth: 'user' },
  { method: 'PUT', path: '/settings/{key}', area: 'settings', handler: 'update-setting', auth: 'super' },
  // The PIX certificate (core §5, §7; decisions D169): uploaded sealed, never served back.
  { method: 'POST', path: '/settings/cert-upload', area: 'settings', handler: 'upload-certificate', auth: 'super' },
  { method: 'GET', path: '/settings/cert-upload', area: 'settings', handler: 'get-certificate-status', auth: 'super' },
  { method: 'GET', path: '/public-settings/{key}', area: 'settings', handler: 'get-public-setting', auth: 'public' },
  // The whitelabel logos (core §7 Settings; decisions D171).
  {
    method: 'POST',
    path: '/settings-whitelabel/logo',
    area: 'settings',
    handler: 'upload-whitelabel-logo',
    auth: 'super',
  },
  { method: 'GET', path: '/plans/list', area: 'settings', handler: 'list-public-plans', auth: 'public' },
  // The company's working hours (admin spec §7 "Company working schedules"; decisions D90).
  {
    method: 'PUT',
    path: '/companies/{id}/schedules',
    area: 'settings',
    handler: 'update-company-schedules',
    auth: 'admin',
  },
  // Campaigns (administration §2 Campaigns, §7; decisions D133–D136): admin screens (the profile user sees
  // no access, §6) of the campaigns plan flag; the report's call is ours (D134).
  {
    method: 'GET',
    path: '/campaigns',
    area: 'campaigns',
    handler: 'list-campaigns',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'GET',
    path: '/campaigns/{id}',
    area: 'campaigns',
    handler: 'get-campaign',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'GET',
    path: '/campaigns/{id}/report',
    area: 'campaigns',
    handler: 'get-campaign-report',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'POST',
    path: '/campaigns',
    area: 'campaigns',
    handler: 'create-campaign',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'PUT',
    path: '/campaigns/{id}',
    area: 'campaigns',
    handler: 'update-campaign',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'DELETE',
    path: '/campaigns/{id}',
    area: 'campaigns',
    handler: 'delete-campaign',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'POST',
    path: '/campaigns/{id}/cancel',
    area: 'campaigns',
    handler: 'cancel-campaign',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'POST',
    path: '/campaigns/{id}/restart',
    area: 'campaigns',
    handler: 'restart-campaign',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'POST',
    path: '/campaigns/{id}/media-upload',
    area: 'campaigns',
    handler: 'upload-campaign-media',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'DELETE',
    path: '/campaigns/{id}/media-upload',
    area: 'campaigns',
    handler: 'delete-campaign-media',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },

  // Campaign settings (administration §7 "GET and POST /campaign-settings"; decisions D117): the pacing,
  // hours and daily limit the send governor applies to every automatic send.
  {
    method: 'GET',
    path: '/campaign-settings',
    area: 'settings',
    handler: 'get-campaign-settings',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'POST',
    path: '/campaign-settings',
    area: 'settings',
    handler: 'save-campaign-settings',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },
  {
    method: 'GET',
    path: '/companies/listPlan/{companyId}',
    area: 'settings',
    handler: 'get-company-plan',
    auth: 'user',
  },

  // Connections (core spec §7). `user` routes: the service lets connection managers change (admins,
  // super, plain users with allowConnections) and everyone in the company read
  // (docs/decisions/D22-connections-access-and-start.md).
  { method: 'GET', path: '/whatsapp', area: 'connections', handler: 'list-connections', auth: 'user' },
  { method: 'GET', path: '/whatsapp/filter', area: 'connections', handler: 'filter-connections', auth: 'user' },
  { method: 'GET', path: '/whatsapp/all', area: 'connections', handler: 'list-all-connections', auth: 'super' },
  { method: 'GET', path: '/whatsapp/{id}', area: 'connections', handler: 'get-connection', auth: 'user' },
  { method: 'GET', path: '/whatsapp-admin/{id}', area: 'connections', handler: 'get-any-connection', auth: 'super' },
  { method: 'POST', path: '/whatsapp', area: 'connections', handler: 'create-connection', auth: 'user' },
  { method: 'PUT', path: '/whatsapp/{id}', area: 'connections', handler: 'update-connection', auth: 'user' },
  { method: 'DELETE', path: '/whatsapp/{id}', area: 'connections', handler: 'delete-connection', auth: 'user' },
  {
    method: 'POST',
    path: '/whatsapp/{id}/media-upload',
    area: 'connections',
    handler: 'upload-connection-media',
    auth: 'user',
  },
  {
    method: 'DELETE',
    path: '/whatsapp/{id}/media-upload',
    area: 'connections',
    handler: 'delete-connection-media',
    auth: 'user',
  },
  {
    method: 'POST',
    path: '/whatsappsession/{id}',
    area: 'connections',
    handler: 'start-connection-session',
    auth: 'user',
  },
  {
    method: 'PUT',
    path: '/whatsappsession/{id}',
    area: 'connections',
    handler: 'renew-connection-qrcode',
    auth: 'user',
  },
  {
    method: 'DELETE',
    path: '/whatsappsession/{id}',
    area: 'connections',
    handler: 'disconnect-connection-session',
    auth: 'user',
  },
  {
    method: 'DELETE',
    path: '/whatsappsession/admin/{id}',
    area: 'connections',
    handler: 'disconnect-any-connection-session',
    auth: 'super',
  },
  { method: 'POST', path: '/whatsapp-restart', area: 'connections', handler: 'restart-connections', auth: 'user' },
  // The import of old messages (decisions D78): closes the pending tickets the last import created.
  {
    method: 'POST',
    path: '/closedimported/{id}',
    area: 'connections',
    handler: 'close-imported-tickets',
    auth: 'user',
  },
  // Meta (decisions D40): the Facebook login's pages and Instagram accounts become connections; Meta's webhooks
  // (Messenger, Instagram, WhatsApp Cloud API) are public and checked by their X-Hub-Signature-256.
  { method: 'POST', path: '/facebook', area: 'connections', handler: 'connect-facebook-pages', auth: 'user' },
  // A WhatsApp Cloud API number (decisions D76): its phone number id and token become a connection.
  {
    method: 'POST',
    path: '/whatsapp/cloud-api',
    area: 'connections',
    handler: 'connect-cloud-api-number',
    auth: 'user',
  },
  { method: 'GET', path: '/webhooks/meta', area: 'connections', handler: 'verify-meta-webhook', auth: 'public' },
  { method: 'POST', path: '/webhooks/meta', area: 'connections', handler: 'receive-meta-webhook', auth: 'public' },
  // The phone simulator (not in the spec; DESIGN §6, decisions D36): scans the QR code a simulated session shows.
  {
    method: 'POST',
    path: '/simulator/{whatsappId}/scan',
    area: 'connections',
    handler: 'scan-simulator-qrcode',
    auth: 'user',
  },
  // The phone simulator's customer side (decisions D41): write, send a file or react as a customer, see
  // what the customers received, and read it.
  {
    method: 'POST',
    path: '/simulator/{whatsappId}/messages',
    area: 'connections',
    handler: 'simulate-customer-message',
    auth: 'user',
  },
  {
    method: 'POST',
    path: '/simulator/{whatsappId}/media',
    area: 'connections',
    handler: 'simulate-customer-media',
    auth: 'user',
  },
  {
    method: 'GET',
    path: '/simulator/{whatsappId}/messages',
    area: 'connections',
    handler: 'list-simulator-received',
    auth: 'user',
  },
  {
    method: 'POST',
    path: '/simulator/{whatsappId}/read',
    area: 'connections',
    handler: 'simulate-customer-read',
    auth: 'user',
  },
  // The simulated phone's past conversations, handed over after a pairing (the import of old messages, D78).
  {
    method: 'PUT',
    path: '/simulator/{whatsappId}/history',
    area: 'connections',
    handler: 'set-simulator-history',
    auth: 'user',
  },
  // The simulated phone's address book, read by the import from the phone (decisions D148).
  {
    method: 'PUT',
    path: '/simulator/{whatsappId}/contacts',
    area: 'connections',
    handler: 'set-simulator-contacts',
    auth: 'user',
  },

  // Files (file lists): admin spec §2, §7.
  { method: 'GET', path: '/files', area: 'files', handler: 'list-file-lists', auth: 'admin' },
  { method: 'GET', path: '/files/{id}', area: 'files', handler: 'get-file-list', auth: 'admin' },
  { method: 'POST', path: '/files', area: 'files', handler: 'create-file-list', auth: 'admin' },
  { method: 'PUT', path: '/files/{id}', area: 'files', handler: 'update-file-list', auth: 'admin' },
  {
    method: 'POST',
    path: '/files/uploadList/{id}',
    area: 'files',
    handler: 'upload-file-list-files',
    auth: 'admin',
  },
  { method: 'DELETE', path: '/files/{id}', area: 'files', handler: 'delete-file-list', auth: 'admin' },

  // Dashboard, attendance panel and reports (core §7, admin §7; decisions D108–D111): the services check
  // showDashboard (dashboard, charts, reports) and allowRealTime (panel) for plain users.
  { method: 'GET', path: '/dashboard', area: 'dashboard', handler: 'get-dashboard', auth: 'user' },
  { method: 'GET', path: '/dashboard/ticketsUsers', area: 'dashboard', handler: 'tickets-users', auth: 'user' },
  { method: 'GET', path: '/dashboard/ticketsDay', area: 'dashboard', handler: 'tickets-day', auth: 'user' },
  { method: 'GET', path: '/dashboard/moments', area: 'dashboard', handler: 'dashboard-moments', auth: 'user' },
  { method: 'GET', path: '/usersMoments', area: 'dashboard', handler: 'users-moments', auth: 'user' },
  { method: 'GET', path: '/ticketreport/reports', area: 'dashboard', handler: 'tickets-report', auth: 'user' },

  // Spreadsheet exports by job (decisions D127–D129): permission per kind in the service (showDashboard for
  // the attendants sheet and the report; any user for contacts); an export is its requester's only.
  { method: 'POST', path: '/exports', area: 'exports', handler: 'start-export', auth: 'user' },
  { method: 'GET', path: '/exports/{exportId}', area: 'exports', handler: 'get-export', auth: 'user' },
  // Conversation flows and phrase campaigns (administration §2, §7; decisions D138–D142): admins build flows;
  // phrase campaigns follow the campaigns plan flag, and deleting one needs the admin's contacts-page:deleteContact.
  { method: 'GET', path: '/flowbuilder', area: 'flows', handler: 'list-flows', auth: 'admin' },
  { method: 'GET', path: '/flowbuilder/{id}', area: 'flows', handler: 'get-flow', auth: 'admin' },
  { method: 'POST', path: '/flowbuilder', area: 'flows', handler: 'create-flow', auth: 'admin' },
  { method: 'PUT', path: '/flowbuilder', area: 'flows', handler: 'update-flow', auth: 'admin' },
  { method: 'DELETE', path: '/flowbuilder/{id}', area: 'flows', handler: 'delete-flow', auth: 'admin' },
  { method: 'POST', path: '/flowbuilder/duplicate', area: 'flows', handler: 'duplicate-flow', auth: 'admin' },
  { method: 'GET', path: '/flowbuilder/flow/{id}', area: 'flows', handler: 'get-flow-document', auth: 'admin' },
  { method: 'POST', path: '/flowbuilder/flow', area: 'flows', handler: 'save-flow-document', auth: 'admin' },
  // Flow media uploads and trying a flow on the phone simulator (decisions D159, D160).
  { method: 'POST', path: '/flowbuilder/content', area: 'flows', handler: 'upload-flow-content', auth: 'admin' },
  { method: 'POST', path: '/flowbuilder/img', area: 'flows', handler: 'upload-flow-image', auth: 'admin' },
  { method: 'POST', path: '/flowbuilder/audio', area: 'flows', handler: 'upload-flow-audio', auth: 'admin' },
  { method: 'POST', path: '/flowbuilder/test', area: 'flows', handler: 'start-flow-test', auth: 'admin' },
  { method: 'GET', path: '/flowbuilder/test/{id}', area: 'flows', handler: 'get-flow-test-position', auth: 'admin' },
  {
    method: 'GET',
    path: '/flowcampaign',
    area: 'flows',
    handler: 'list-flow-campaigns',
    auth: 'user',
    planFlag: 'useCampaigns',
  },
  {
    method: 'GET',
    path: '/flowcampaign/{id}',
    area: 'flows',
    handler: 'get-flow-campaign',
    auth: 'user',
    planFlag: 'useCampaigns',
  },
  {
    method: 'POST',
    path: '/flowcampaign',
    area: 'flows',
    handler: 'create-flow-campaign',
    auth: 'user',
    planFlag: 'useCampaigns',
  },
  {
    method: 'PUT',
    path: '/flowcampaign',
    area: 'flows',
    handler: 'update-flow-campaign',
    auth: 'user',
    planFlag: 'useCampaigns',
  },
  {
    method: 'DELETE',
    path: '/flowcampaign/{id}',
    area: 'flows',
    handler: 'delete-flow-campaign',
    auth: 'admin',
    planFlag: 'useCampaigns',
  },

  // Internal chat (administration §2, §7; decisions D145): members only see a chat; only its owner edits or
  // deletes it (the service checks); the plan's useInternalChat gates every call.
  { method: 'GET', path: '/chats', area: 'chats', handler: 'list-chats', auth: 'user', planFlag: 'useInternalChat' },
  { method: 'GET', path: '/chats/{id}', area: 'chats', handler: 'get-chat', auth: 'user', planFlag: 'useInternalChat' },
  { method: 'POST', path: '/chats', area: 'chats', handler: 'create-chat', auth: 'user', planFlag: 'useInternalChat' },
  {
    method: 'PUT',
    path: '/chats/{id}',
    area: 'chats',
    handler: 'update-chat',
    auth: 'user',
    planFlag: 'useInternalChat',
  },
  {
    method: 'DELETE',
    path: '/chats/{id}',
    area: 'chats',
    handler: 'delete-chat',
    auth: 'user',
    planFlag: 'useInternalChat',
  },
  {
    method: 'GET',
    path: '/chats/{id}/messages',
    area: 'chats',
    handler: 'list-chat-messages',
    auth: 'user',
    planFlag: 'useInternalChat',
  },
  {
    method: 'POST',
    path: '/chats/{id}/messages',
    area: 'chats',
    handler: 'send-chat-message',
    auth: 'user',
    planFlag: 'useInternalChat',
  },
  {
    method: 'POST',
    path: '/chats/{id}/read',
    area: 'chats',
    handler: 'mark-chat-read',
    auth: 'user',
    planFlag: 'useInternalChat',
  },

  // Announcements (administration §2, §7; decisions D144): the owner writes; every user reads the active ones.
  { method: 'GET', path: '/announcements', area: 'announcements', handler: 'list-announcements', auth: 'user' },
  { method: 'GET', path: '/announcements/{id}', area: 'announcements', handler: 'get-announcement', auth: 'super' },
  { method: 'POST', path: '/announcements', area: 'announcements', handler: 'create-announcement', auth: 'super' },
  {
    method: 'PUT',
    path: '/announcements/{id}',
    area: 'announcements',
    handler: 'update-announcement',
    auth: 'super',
  },
  {
    method: 'DELETE',
    path: '/announcements/{id}',
    area: 'announcements',
    handler: 'delete-announcement',
    auth: 'super',
  },
  {
    method: 'POST',
    path: '/announcements/{id}/media-upload',
    area: 'announcements',
    handler: 'upload-announcement-media',
    auth: 'super',
  },
  {
    method: 'DELETE',
    path: '/announcements/{id}/media-upload',
    area: 'announcements',
    handler: 'delete-announcement-media',
    auth: 'super',
  },

  // Help entries (core §7 "Other", administration §7; decisions D146): everyone reads, the owner writes.
  { method: 'GET', path: '/helps', area: 'helps', handler: 'list-helps', auth: 'user' },
  { method: 'GET', path: '/helps/list', area: 'helps', handler: 'list-all-helps', auth: 'user' },
  { method: 'POST', path: '/helps', area: 'helps', handler: 'create-help', auth: 'super' },
  { method: 'PUT', path: '/helps/{id}', area: 'helps', handler: 'update-help', auth: 'super' },
  { method: 'DELETE', path: '/helps/{id}', area: 'helps', handler: 'delete-help', auth: 'super' },

  // Plans, invoices and checkout (administration §7; decisions D151–D153). The owner manages plans; a
  // company's admins see and pay its invoices, also when its subscription expired (allowExpired). Payment
  // webhooks are public and verified by the provider's adapter.
  { method: 'GET', path: '/plans/all', area: 'billing', handler: 'list-all-plans', auth: 'super' },
  { method: 'POST', path: '/plans', area: 'billing', handler: 'create-plan', auth: 'super' },
  { method: 'PUT', path: '/plans/{id}', area: 'billing', handler: 'update-plan', auth: 'super' },
  { method: 'DELETE', path: '/plans/{id}', area: 'billing', handler: 'delete-plan', auth: 'super' },
  {
    method: 'GET',
    path: '/invoices/all',
    area: 'billing',
    handler: 'list-invoices',
    auth: 'admin',
    allowExpired: true,
  },
  { method: 'POST', path: '/subscription', area: 'billing', handler: 'subscribe', auth: 'admin', allowExpired: true },
  {
    method: 'POST',
    path: '/webhooks/efi',
    area: 'billing',
    handler: 'receive-efi-webhook',
    auth: 'public',
    allowExpired: true,
  },
  // Card-payment providers (decisions D167, D168): their webhooks (verified by each adapter) and what the
  // checkout offers.
  {
    method: 'POST',
    path: '/webhooks/stripe',
    area: 'billing',
    handler: 'receive-stripe-webhook',
    auth: 'public',
    allowExpired: true,
  },
  {
    method: 'POST',
    path: '/webhooks/asaas',
    area: 'billing',
    handler: 'receive-asaas-webhook',
    auth: 'public',
    allowExpired: true,
  },
  {
    method: 'POST',
    path: '/webhooks/mercadopago',
    area: 'billing',
    handler: 'receive-mercadopago-webhook',
    auth: 'public',
    allowExpired: true,
  },
  {
    method: 'GET',
    path: '/subscription/providers',
    area: 'billing',
    handler: 'list-payment-providers',
    auth: 'admin',
    allowExpired: true,
  },
  // Queue integrations and AI prompts (administration §7; decisions D162–D165).
  {
    method: 'GET',
    path: '/queueIntegration',
    area: 'integrations',
    handler: 'list-queue-integrations',
    auth: 'admin',
    planFlag: 'useIntegrations',
  },
  {
    method: 'POST',
    path: '/queueIntegration/testSession',
    area: 'integrations',
    handler: 'test-queue-integration-session',
    auth: 'admin',
    planFlag: 'useIntegrations',
  },
  {
    method: 'GET',
    path: '/queueIntegration/{id}',
    area: 'integrations',
    handler: 'get-queue-integration',
    auth: 'admin',
    planFlag: 'useIntegrations',
  },
  {
    method: 'POST',
    path: '/queueIntegration',
    area: 'integrations',
    handler: 'create-queue-integration',
    auth: 'admin',
    planFlag: 'useIntegrations',
  },
  {
    method: 'PUT',
    path: '/queueIntegration/{id}',
    area: 'integrations',
    handler: 'update-queue-integration',
    auth: 'admin',
    planFlag: 'useIntegrations',
  },
  {
    method: 'DELETE',
    path: '/queueIntegration/{id}',
    area: 'integrations',
    handler: 'delete-queue-integration',
    auth: 'admin',
    planFlag: 'useIntegrations',
  },
  {
    method: 'GET',
    path: '/prompt',
    area: 'integrations',
    handler: 'list-prompts',
    auth: 'admin',
    planFlag: 'useOpenAi',
  },
  {
    method: 'GET',
    path: '/prompt/{id}',
    area: 'integrations',
    handler: 'get-prompt',
    auth: 'admin',
    planFlag: 'useOpenAi',
  },
  {
    method: 'POST',
    path: '/prompt',
    area: 'integrations',
    handler: 'create-prompt',
    auth: 'admin',
    planFlag: 'useOpenAi',
  },
  {
    method: 'PUT',
    path: '/prompt/{id}',
    area: 'integrations',
    handler: 'update-prompt',
    auth: 'admin',
    planFlag: 'useOpenAi',
  },
  {
    method: 'DELETE',
    path: '/prompt/{id}',
    area: 'integrations',
    handler: 'delete-prompt',
    auth: 'admin',
    planFlag: 'useOpenAi',
  },
  // Companies (administration §2 "Companies and plans", §7; decisions D155–D157): the platform owner only.
  { method: 'GET', path: '/companiesPlan', area: 'companies', handler: 'list-companies-plan', auth: 'super' },
  { method: 'GET', path: '/companies', area: 'companies', handler: 'list-companies', auth: 'super' },
  { method: 'GET', path: '/companies/list', area: 'companies', handler: 'list-all-companies', auth: 'super' },
  { method: 'GET', path: '/companies/{id}', area: 'companies', handler: 'get-company', auth: 'super' },
  { method: 'POST', path: '/companies', area: 'companies', handler: 'create-company', auth: 'super' },
  { method: 'PUT', path: '/companies/{id}', area: 'companies', handler: 'update-company', auth: 'super' },
  { method: 'DELETE', path: '/companies/{id}', area: 'companies', handler: 'delete-company', auth: 'super' },
];

/** `GET /users/{id}` -> `GET /users/{id}`; API Gateway's route key for an entry. */
export const routeKey = (r: Pick<RouteDef, 'method' | 'path'>): string => `${r.method} ${r.path}`;

export const routesOfArea = (area: Area): RouteDef[] => ROUTES.filter((r) => r.area === area);
