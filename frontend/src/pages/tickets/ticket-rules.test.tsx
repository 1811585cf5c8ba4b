import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { shouldNotify, titleWithUnread } from '@/components/ticket-notifications/notification-rules';
import { WhatsappMarkup } from '@/components/whatsapp-markup';
import { authUser } from '@/testing/auth-fixtures';
import { keepRecording } from './audio-recorder';
import { quickReplyMatches, signed } from './composer';
import { formatListTime, formatPhone, truncate } from './format';
import { AUDIO_SPEEDS, messageActions, nextAudioSpeed } from './message-item';
import { messageRow, ticketRow } from './ticket-fixtures';
import { applyTicketChange, queryOf, type ListFilter } from './ticket-list-state';

const FILTER: ListFilter = {
  section: 'pending',
  searchParam: '',
  searchOnMessages: false,
  showAll: false,
  queueIds: [1],
  tags: [],
  users: [],
  whatsapps: [],
  statusFilter: [],
  withUnreadMessages: false,
  sortTickets: null,
};
const ME = authUser({ id: 5, queues: [{ id: 1, name: 'Vendas', color: '#f00' }] });

describe('format (core spec §5, §9)', () => {
  it('cuts text, formats list times and phone masks', () => {
    expect(truncate('abc', 2)).toBe('ab...');
    expect(truncate('ab', 2)).toBe('ab');
    const now = new Date(2026, 0, 2, 15, 0);
    expect(formatListTime(new Date(2026, 0, 2, 9, 5).toISOString(), now)).toBe('09:05');
    expect(formatListTime(new Date(2026, 0, 1, 9, 5).toISOString(), now)).toBe('01/01/2026');
    expect(formatPhone('551134567890')).toBe('+55 (11) 3456-7890');
    expect(formatPhone('5511987654321')).toBe('+55 (11) 98765-4321');
    expect(formatPhone('55119****4321')).toBe('55119****4321');
  });

  it('markdown: bold, strike, links in a new tab, HTML shown as text', () => {
    const { container } = render(<WhatsappMarkup text={'*a* ~b~ <i>c</i> http://x.y/z'} />);
    expect(container.querySelector('strong')?.textContent).toBe('a');
    expect(container.querySelector('s')?.textContent).toBe('b');
    expect(container.querySelector('i')).toBeNull();
    expect(container.querySelector('a')?.getAttribute('href')).toBe('http://x.y/z');
    expect(container.querySelector('a')?.getAttribute('rel')).toContain('noopener');
  });
});

describe('list changes (core spec §4 Listing)', () => {
  it('an unread message moves the ticket up; a read update stays in place; sort keeps updatedAt order', () => {
    const list = [ticketRow(1, 'A'), ticketRow(2, 'B', { updatedAt: '2026-01-01T09:00:00.000Z' })];
    const unread = ticketRow(2, 'B', { unreadMessages: 2, updatedAt: '2026-01-01T12:00:00.000Z' });
    expect(applyTicketChange(list, { kind: 'message', ticket: unread }, FILTER, ME).map((t) => t.id)).toEqual([2, 1]);
    const read = ticketRow(2, 'B', { unreadMessages: 0, updatedAt: '2026-01-01T12:00:00.000Z' });
    expect(applyTicketChange(list, { kind: 'message', ticket: read }, FILTER, ME).map((t) => t.id)).toEqual([1, 2]);
    const asc = applyTicketChange(
      list,
      { kind: 'update', ticket: ticketRow(3, 'C', { updatedAt: '2026-01-01T09:30:00.000Z' }) },
      { ...FILTER, sortTickets: 'ASC' },
      ME,
    );
    expect(asc.map((t) => t.id)).toEqual([2, 3, 1]);
    expect(applyTicketChange(list, { kind: 'read', ticketId: 1 }, FILTER, ME)).toEqual(list);
  });

  it('open tickets of others stay out unless show-all; stale events change nothing', () => {
    const theirs = ticketRow(4, 'D', { status: 'open', userId: 9 });
    expect(applyTicketChange([], { kind: 'update', ticket: theirs }, { ...FILTER, section: 'open' }, ME)).toEqual([]);
    expect(
      applyTicketChange([], { kind: 'update', ticket: theirs }, { ...FILTER, section: 'open', showAll: true }, ME),
    ).toHaveLength(1);
    const shown = [ticketRow(1, 'A', { updatedAt: '2026-01-01T12:00:00.000Z' })];
    expect(
      applyTicketChange(shown, { kind: 'update', ticket: ticketRow(1, 'A', { status: 'open' }) }, FILTER, ME),
    ).toBe(shown);
  });

  it('the closed and search views send no sort; search sends no status', () => {
    expect(queryOf({ ...FILTER, section: 'closed', sortTickets: 'ASC' }).sortTickets).toBeUndefined();
    expect(queryOf({ ...FILTER, section: 'open', sortTickets: 'ASC' }).sortTickets).toBe('ASC');
    expect(queryOf({ ...FILTER, section: 'search', searchParam: 'x' }).status).toBeUndefined();
  });
});

describe('notifications (core spec §4, §9)', () => {
  const options = { showNotificationPending: false, visibleTicketUuid: null };
  const inbound = messageRow('m', 1, 'oi', { read: false });
  it('notifies unread inbound messages of my or unassigned open tickets in my queues only', () => {
    expect(shouldNotify(inbound, ticketRow(1, 'A', { status: 'open', userId: 5 }), ME, options)).toBe(true);
    expect(shouldNotify({ ...inbound, fromMe: true }, ticketRow(1, 'A', { status: 'open' }), ME, options)).toBe(false);
    expect(shouldNotify({ ...inbound, read: true }, ticketRow(1, 'A', { status: 'open' }), ME, options)).toBe(false);
    expect(shouldNotify(inbound, ticketRow(1, 'A', { status: 'open', userId: 9 }), ME, options)).toBe(false);
    expect(shouldNotify(inbound, ticketRow(1, 'A', { status: 'open', queueId: 2 }), ME, options)).toBe(false);
    expect(shouldNotify(inbound, ticketRow(1, 'A', { status: 'open', queueId: null }), ME, options)).toBe(false);
    expect(
      shouldNotify(
        inbound,
        ticketRow(1, 'A', { status: 'open', queueId: null }),
        { ...ME, allTicket: 'enable' },
        options,
      ),
    ).toBe(true);
    expect(
      shouldNotify(inbound, ticketRow(1, 'A', { status: 'open' }), ME, { ...options, visibleTicketUuid: 'uuid-1' }),
    ).toBe(false);
  });

  it('pending only with showNotificationPending; groups only with groupAsTicket and allowGroup; never lgpd or nps', () => {
    expect(shouldNotify(inbound, ticketRow(1, 'A'), ME, options)).toBe(false);
    expect(shouldNotify(inbound, ticketRow(1, 'A'), ME, { ...options, showNotificationPending: true })).toBe(true);
    const group = ticketRow(1, 'G', { status: 'group', whatsapp: { id: 1, name: 'W', groupAsTicket: 'enabled' } });
    expect(shouldNotify(inbound, group, ME, options)).toBe(false);
    expect(shouldNotify(inbound, group, { ...ME, allowGroup: true }, options)).toBe(true);
    expect(shouldNotify(inbound, ticketRow(1, 'A', { status: 'nps' }), ME, options)).toBe(false);
  });

  it('the title carries the count as a symbol up to 20, else in parentheses', () => {
    expect(titleWithUnread('ZapDesk', 0)).toBe('ZapDesk');
    expect(titleWithUnread('ZapDesk', 1)).toBe('① ZapDesk');
    expect(titleWithUnread('ZapDesk', 20)).toBe('⑳ ZapDesk');
    expect(titleWithUnread('ZapDesk', 21)).toBe('(21) ZapDesk');
  });
});

describe('composer and message rules', () => {
  it('signature, quick-reply matching, audio size and speed cycle', () => {
    expect(signed('oi', 'Ana')).toBe('*Ana:*\noi');
    const replies = [{ id: 1, shortcode: 'ola', message: 'Olá' }];
    expect(quickReplyMatches('oi', replies)).toBeNull();
    expect(quickReplyMatches('/ol', replies)).toEqual(replies);
    expect(keepRecording(new Blob([new Uint8Array(9_999)]))).toBe(false);
    expect(keepRecording(new Blob([new Uint8Array(10_000)]))).toBe(true);
    expect(AUDIO_SPEEDS.map(nextAudioSpeed)).toEqual([1, 1.5, 2, 0.5]);
  });

  it('edit only own text within 15 minutes; delete only own; transcribe audio; talk to sender in groups', () => {
    const now = Date.parse('2026-01-01T10:10:00.000Z');
    const own = messageRow('a', 1, 'x', { fromMe: true });
    expect(messageActions(own, { isGroup: false, now })).toEqual(['reply', 'forward', 'edit', 'delete']);
    expect(messageActions(own, { isGroup: false, now: now + 10 * 60_000 })).toEqual(['reply', 'forward', 'delete']);
    const audio = messageRow('b', 1, '', {
      mediaType: 'audio',
      mediaUrl: '/media/a.ogg',
      participant: { number: '5511912345678' },
    });
    expect(messageActions(audio, { isGroup: true, now })).toEqual(['reply', 'forward', 'transcribe', 'talkToSender']);
    expect(messageActions({ ...own, isDeleted: true }, { isGroup: false, now })).toEqual([]);
  });
});
