import { describe, expect, it } from 'vitest';
import { inImportWindow } from '../../functions/core/connections/message-import';

/** The import window of old messages (decisions D78): days in the company's time zone, both ends included. */
describe('inImportWindow', () => {
  const connection = {
    importOldMessages: '2026-11-10',
    importRecentMessages: '2026-11-12',
    importOldMessagesGroups: false,
  };
  const at = (iso: string, isGroup = false) => ({ timestamp: iso, chat: { isGroup } });

  it('takes the first and last day whole, in the company time zone', () => {
    // 2026-11-10 00:30 in São Paulo is 03:30 UTC; 2026-11-12 23:50 there is 02:50 UTC on the 13th.
    expect(inImportWindow(connection, at('2026-11-10T03:30:00Z'), 'America/Sao_Paulo')).toBe(true);
    expect(inImportWindow(connection, at('2026-11-13T02:50:00Z'), 'America/Sao_Paulo')).toBe(true);
    // 2026-11-09 23:30 in São Paulo (02:30 UTC on the 10th) is the day before.
    expect(inImportWindow(connection, at('2026-11-10T02:30:00Z'), 'America/Sao_Paulo')).toBe(false);
    expect(inImportWindow(connection, at('2026-11-13T03:10:00Z'), 'America/Sao_Paulo')).toBe(false);
  });

  it('runs to today without an end date, and takes nothing without a start date', () => {
    const open = { ...connection, importRecentMessages: null };
    expect(inImportWindow(open, at(new Date().toISOString()), 'America/Sao_Paulo')).toBe(true);
    expect(inImportWindow({ ...open, importOldMessages: null }, at('2026-11-11T12:00:00Z'))).toBe(false);
  });

  it('takes group chats only when the connection imports groups', () => {
    expect(inImportWindow(connection, at('2026-11-11T12:00:00Z', true))).toBe(false);
    expect(inImportWindow({ ...connection, importOldMessagesGroups: true }, at('2026-11-11T12:00:00Z', true))).toBe(
      true,
    );
  });
});
