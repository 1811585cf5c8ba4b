/**
 * The real-time event catalogue (core spec §7 "Real time"): every channel the server publishes on and the
 * actions each carries. The server's notifier port (functions/core/notifier.ts) takes only these, and the
 * browser's socket client (frontend/src/realtime/) subscribes by the same names, so a renamed channel or
 * action fails typecheck on both sides. Channels are per company: `company-{id}-{channel}`.
 */
export const COMPANY_CHANNELS = {
  /** A ticket's place in the lists: its view (`update`), gone from sight (`delete`), unread count reset. */
  ticket: ['update', 'delete', 'updateUnread'],
  /** A ticket's messages: new or changed (`create`, `update`), removed (`delete`). */
  appMessage: ['create', 'update', 'delete'],
  contact: ['update', 'delete'],
  user: ['create', 'update', 'delete'],
  /** The session of a user ended elsewhere (a login on another computer). */
  auth: ['update'],
  whatsapp: ['update', 'delete'],
  whatsappSession: ['update'],
  quickemessage: ['create', 'update', 'delete'],
  queue: ['create', 'update', 'delete'],
  /** File lists (administration spec §7; decisions D88): `files` on create and update, `fileId` on delete. */
  file: ['create', 'update', 'delete'],
  /** Tags and kanban lanes (decisions D100): `tag` on create and update, `tagId` on delete; `company{id}-tag`. */
  tag: ['create', 'update', 'delete'],
  /**
   * The import of old messages' progress (decisions D78); on the wire it is `importMessages-{id}`, the
   * spec's own name, not a `company-` channel.
   */
  importMessages: ['update', 'refresh'],
  /** A contact spreadsheet import's progress (`contactImport`, a ContactImportView; decisions D104). */
  contactImport: ['update'],
  /** A spreadsheet export's progress (`export`, an ExportView), to the user who asked for it (decisions D127). */
  export: ['update'],
  /** Contact lists (administration §7; decisions D122): `record` on create and update, `id` on delete. */
  ContactList: ['create', 'update', 'delete'],
  /** A list's items: `record` on create and update, `id` on delete, `reload` after an import (D122). */
  ContactListItem: ['create', 'update', 'delete', 'reload'],
  /**
   * Scheduled messages (decisions D118): `schedule` (a ScheduleView) on create and update, `scheduleId` on
   * delete; on the wire `company{id}-schedule`, the spec's own name (administration §7).
   */
  schedule: ['create', 'update', 'delete'],
  /**
   * Campaigns (decisions D133): `record` (a CampaignView, with its progress counters) on create and update —
   * also as the campaign's sends progress — and `campaignId` on delete.
   */
  campaign: ['create', 'update', 'delete'],
  /**
   * Internal chat (administration §7; decisions D145): with `chatTarget` on the event it goes out on
   * `company-{id}-chat-user-{userId}` (one member's chat list: `record`, or `id` on delete) or
   * `company-{id}-chat-{chatId}` (one chat's pane: `newMessage`), only ever to the chat's members.
   */
  chat: ['create', 'update', 'delete', 'new-message'],
  /** A paid invoice (administration §7; decisions D153): `CONCLUIDA` with `company: {id, dueDate}`. */
  payment: ['CONCLUIDA'],
  /** Queue integrations (administration §7; decisions D162): `queueIntegration` on create/update, `integrationId` on delete. */
  queueIntegration: ['create', 'update', 'delete'],
  /** AI prompts (administration §7; decisions D164): `prompt` on create/update, `promptId` on delete. */
  prompt: ['create', 'update', 'delete'],
} as const satisfies Record<string, readonly string[]>;

export type CompanyChannel = keyof typeof COMPANY_CHANNELS;
export type ChannelAction<C extends CompanyChannel> = (typeof COMPANY_CHANNELS)[C][number];

/** A channel's name on the wire: `company-{id}-{channel}` (`importMessages-{id}` for the import). */
export const companyChannel = (companyId: number, channel: CompanyChannel): string =>
  channel === 'importMessages'
    ? `importMessages-${companyId}`
    : channel === 'tag' || channel === 'schedule'
      ? `company${companyId}-${channel}` // the spec's own names (administration §7), without the dash
      : `company-${companyId}-${channel}`;

/** Where a chat event goes: one member's list, or one chat's pane (decisions D145). */
export type ChatTarget = { userId: number } | { chatId: number };

/** `company-{id}-chat-user-{userId}` or `company-{id}-chat-{chatId}` (administration §7). */
export const chatChannel = (companyId: number, target: ChatTarget): string =>
  'userId' in target ? `company-${companyId}-chat-user-${target.userId}` : `company-${companyId}-chat-${target.chatId}`;

/**
 * The platform's one channel (core §7): announcements (`record` on create and update, `id` on delete),
 * sent to every signed-in user of every company (decisions D144).
 */
export const ANNOUNCEMENT_CHANNEL = 'company-announcement';
export const ANNOUNCEMENT_ACTIONS = ['create', 'update', 'delete'] as const;

/** One event as it goes over the socket: the channel name, the action and its payload fields. */
export interface RealtimeEvent {
  channel: string;
  action: string;
  [payload: string]: unknown;
}

/** An event on one of a company's channels, with an action that channel carries. */
export type CompanyEvent<C extends CompanyChannel = CompanyChannel> = {
  [K in C]: { channel: K; action: ChannelAction<K>; [payload: string]: unknown };
}[C];

/** A company event as sent: its channel name made whole. */
export const toWireEvent = (companyId: number, { channel, chatTarget, ...rest }: CompanyEvent): RealtimeEvent => ({
  ...rest,
  channel:
    channel === 'chat' && chatTarget
      ? chatChannel(companyId, chatTarget as ChatTarget)
      : companyChannel(companyId, channel),
});

/** The browser's frame when several events go to one socket at once (decisions D83). */
export interface BatchFrame {
  batch: RealtimeEvent[];
}
