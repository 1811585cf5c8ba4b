import { describe, expect, it } from 'vitest';
import {
  canSeeTicket,
  toTicketViewer,
  type TicketViewer,
  type VisibleTicket,
} from '../../functions/core/tickets/visibility';

const ME = 7;
const OTHER = 8;
const MY_QUEUE = 1;
const OTHER_QUEUE = 2;

const viewer = (v: Partial<TicketViewer> = {}): TicketViewer => ({
  userId: ME,
  profile: 'user',
  super: false,
  queueIds: [MY_QUEUE],
  allTicket: false,
  allowGroup: false,
  allUserChat: false,
  ...v,
});

const ticket = (t: Partial<VisibleTicket> = {}): VisibleTicket => ({
  status: 'pending',
  queueId: MY_QUEUE,
  userId: null,
  isGroup: false,
  ...t,
});

/** [what, viewer, ticket, expected] — every rule of functions/core/tickets/visibility.ts, both ways. */
const cases: [string, Partial<TicketViewer>, Partial<VisibleTicket>, boolean][] = [
  // 1. admins and super users see everything
  [
    'admin: another queue, another user, a group',
    { profile: 'admin' },
    { queueId: OTHER_QUEUE, userId: OTHER, isGroup: true, status: 'group' },
    true,
  ],
  ['admin: no queue', { profile: 'admin', queueIds: [] }, { queueId: null }, true],
  ['super user (plain profile)', { super: true, queueIds: [] }, { queueId: OTHER_QUEUE, userId: OTHER }, true],
  // pending (unassigned) tickets: the queue decides
  ['pending in my queue', {}, {}, true],
  ['pending in another queue', {}, { queueId: OTHER_QUEUE }, false],
  ['pending without queue, allTicket off', {}, { queueId: null }, false],
  ['pending without queue, allTicket on', { allTicket: true }, { queueId: null }, true],
  ['allTicket does not open other queues', { allTicket: true }, { queueId: OTHER_QUEUE }, false],
  ['a user without queues sees no queued ticket', { queueIds: [] }, {}, false],
  ['lgpd and nps (unassigned) follow the queue', {}, { status: 'lgpd' }, true],
  ['nps in another queue', {}, { status: 'nps', queueId: OTHER_QUEUE }, false],
  // 2. own tickets, always
  ['open and mine', {}, { status: 'open', userId: ME }, true],
  ['mine in a queue I left', {}, { status: 'open', userId: ME, queueId: OTHER_QUEUE }, true],
  ['mine without queue, allTicket off', {}, { status: 'open', userId: ME, queueId: null }, true],
  ['closed and mine', {}, { status: 'closed', userId: ME }, true],
  // 4. another user's tickets need allUserChat
  ["another user's, in my queue", {}, { status: 'open', userId: OTHER }, false],
  ["another user's, in my queue, allUserChat", { allUserChat: true }, { status: 'open', userId: OTHER }, true],
  [
    "another user's, another queue, allUserChat",
    { allUserChat: true },
    { status: 'open', userId: OTHER, queueId: OTHER_QUEUE },
    false,
  ],
  [
    "another user's, no queue, allUserChat only",
    { allUserChat: true },
    { status: 'open', userId: OTHER, queueId: null },
    false,
  ],
  [
    "another user's, no queue, allUserChat and allTicket",
    { allUserChat: true, allTicket: true },
    { status: 'open', userId: OTHER, queueId: null },
    true,
  ],
  ["another user's closed ticket", {}, { status: 'closed', userId: OTHER }, false],
  ["another user's closed ticket, allUserChat", { allUserChat: true }, { status: 'closed', userId: OTHER }, true],
  ['closed, unassigned, my queue', {}, { status: 'closed' }, true],
  // 3. groups need allowGroup
  ['group, allowGroup off', {}, { status: 'group', isGroup: true, queueId: null }, false],
  ['group, allowGroup on, no queue', { allowGroup: true }, { status: 'group', isGroup: true, queueId: null }, true],
  ['group ticket as pending (groupAsTicket), allowGroup off', {}, { status: 'pending', isGroup: true }, false],
  [
    'group ticket as pending, allowGroup on, my queue',
    { allowGroup: true },
    { status: 'pending', isGroup: true },
    true,
  ],
  [
    'group in another queue, allowGroup on',
    { allowGroup: true },
    { status: 'group', isGroup: true, queueId: OTHER_QUEUE },
    false,
  ],
  [
    'group accepted by another user, allowGroup only',
    { allowGroup: true },
    { status: 'group', isGroup: true, userId: OTHER, queueId: null },
    false,
  ],
  [
    'group accepted by another user, allowGroup and allUserChat',
    { allowGroup: true, allUserChat: true },
    { status: 'group', isGroup: true, userId: OTHER, queueId: null },
    true,
  ],
  ['my own group ticket, allowGroup off', {}, { status: 'group', isGroup: true, userId: ME }, true],
];

describe('ticket visibility (core spec §6)', () => {
  it.each(cases)('%s', (_what, v, t, expected) => {
    expect(canSeeTicket(viewer(v), ticket(t))).toBe(expected);
  });
});

describe('stored users as viewers', () => {
  it("reads the spec's stored flag values and the profile case-insensitively", () => {
    expect(
      toTicketViewer({
        id: 3,
        profile: 'Admin',
        queueIds: [1, 2],
        allTicket: 'enable',
        allowGroup: true,
        allUserChat: 'enabled',
      }),
    ).toEqual({
      userId: 3,
      profile: 'admin',
      super: false,
      queueIds: [1, 2],
      allTicket: true,
      allowGroup: true,
      allUserChat: true,
    });
    expect(
      toTicketViewer({ id: 4, profile: 'user', allTicket: 'disable', allowGroup: false, allUserChat: 'disabled' }),
    ).toMatchObject({ profile: 'user', queueIds: [], allTicket: false, allowGroup: false, allUserChat: false });
  });
});
