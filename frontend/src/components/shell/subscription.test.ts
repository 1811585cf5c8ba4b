import { describe, expect, it } from 'vitest';
import { daysUntilDue, formatDueDate, subscriptionStatus } from './subscription';

const NOW = new Date('2026-03-10T23:30:00Z');
const company = (dueDate: string, id = 2) => ({ id, name: 'Padaria Central', dueDate });

describe('subscription status', () => {
  it('counts whole calendar days (UTC) to the due date', () => {
    expect(daysUntilDue('2026-03-10', NOW)).toBe(0);
    expect(daysUntilDue('2026-03-11T00:00:00.000Z', NOW)).toBe(1);
    expect(daysUntilDue('2026-04-10', NOW)).toBe(31);
    expect(daysUntilDue('2026-03-09', NOW)).toBe(-1);
  });

  it.each<[string, string, ReturnType<typeof subscriptionStatus>]>([
    ['6 days left', '2026-03-16', { kind: 'active' }],
    ['5 days left', '2026-03-15', { kind: 'active' }],
    ['4 days left', '2026-03-14', { kind: 'dueSoon', days: 4 }],
    ['1 day left', '2026-03-11', { kind: 'dueSoon', days: 1 }],
    ['the due date itself (still usable)', '2026-03-10', { kind: 'dueSoon', days: 0 }],
    ['a day after the due date', '2026-03-09', { kind: 'expired', dueDate: '2026-03-09' }],
  ])('%s', (_name, dueDate, expected) => {
    expect(subscriptionStatus(company(dueDate), NOW)).toEqual(expected);
  });

  it('never expires nor warns the super company', () => {
    expect(subscriptionStatus(company('2020-01-01', 1), NOW)).toEqual({ kind: 'active' });
    expect(subscriptionStatus(company('2026-03-12', 1), NOW)).toEqual({ kind: 'active' });
    expect(subscriptionStatus(company('2999-12-31', 1), NOW)).toEqual({ kind: 'active' });
  });

  it('shows dates as dd/MM/yyyy without a time-zone shift', () => {
    expect(formatDueDate('2026-03-09')).toBe('09/03/2026');
    expect(formatDueDate('2026-12-31T23:59:59.000Z')).toBe('31/12/2026');
  });
});
