/**
 * The WebSocket API's routes (route selection expression `$request.body.action`), described once for
 * the CDK real-time stack and the local gateway. `$connect` authenticates and registers the connection,
 * `$disconnect` forgets it, every named action and `$default` go to the message handler.
 */
export const WS_ROUTE_SELECTION_EXPRESSION = '$request.body.action';

export const WS_ENTRIES = {
  connect: 'functions/realtime/connect.ts',
  disconnect: 'functions/realtime/disconnect.ts',
  message: 'functions/realtime/message.ts',
} as const;

export type WsEntry = keyof typeof WS_ENTRIES;

/**
 * Named actions: the spec's emits (room joins and leaves, `userStatus`), `leaveChatBox` (ours: leaving a
 * ticket's room when the attendant closes it) and `ping` (keep-alive; answers `pong`).
 */
export const WS_ACTIONS = [
  'ping',
  'joinNotification',
  'leaveNotification',
  'joinTickets',
  'leaveTickets',
  'joinChatBox',
  'leaveChatBox',
  'userStatus',
] as const;

export const WS_ROUTES: readonly { routeKey: string; entry: WsEntry }[] = [
  { routeKey: '$connect', entry: 'connect' },
  { routeKey: '$disconnect', entry: 'disconnect' },
  { routeKey: '$default', entry: 'message' },
  ...WS_ACTIONS.map((a) => ({ routeKey: a, entry: 'message' as const })),
];
