import { describe, expect, it } from 'vitest';
import {
  maskContactFor,
  maskEventNumbers,
  maskNumber,
  shouldMaskNumbers,
} from '../../functions/core/privacy/number-mask';

describe('LGPD number masking', () => {
  it.each([
    ['5511987654321', '5511*******21'],
    ['551187654321', '5511******21'],
    ['12345678', '1234**78'],
    ['123456', '****56'],
    ['12', '12'],
    ['', ''],
  ])('%s → %s (middle hidden, last two shown)', (number, masked) => {
    expect(maskNumber(number)).toBe(masked);
  });

  it('applies to plain users only when the setting is enabled', () => {
    const user = { profile: 'user' as const, super: false };
    expect(shouldMaskNumbers(user, 'enabled')).toBe(true);
    expect(shouldMaskNumbers(user, 'disabled')).toBe(false);
    expect(shouldMaskNumbers(user, undefined)).toBe(false);
    expect(shouldMaskNumbers({ profile: 'admin', super: false }, 'enabled')).toBe(false);
    expect(shouldMaskNumbers({ profile: 'user', super: true }, 'enabled')).toBe(false);
  });

  it('never masks groups', () => {
    expect(maskContactFor({ number: '120363000000001', isGroup: true }, true).number).toBe('120363000000001');
    expect(maskContactFor({ number: '5511987654321', isGroup: false }, true).number).toBe('5511*******21');
    expect(maskContactFor({ number: '5511987654321', isGroup: false }, false).number).toBe('5511987654321');
  });

  it("masks an event's contact and its ticket's contact, leaves groups and everything else alone", () => {
    const person = { id: 1, number: '5511987654321', isGroup: false };
    const group = { id: 2, number: '120363000000000000', isGroup: true };
    const event = { channel: 'company-1-appMessage', action: 'create', message: { body: 'oi' } };
    expect(maskEventNumbers({ ...event, contact: person, ticket: { id: 9, contact: person } })).toEqual({
      ...event,
      contact: { ...person, number: '5511*******21' },
      ticket: { id: 9, contact: { ...person, number: '5511*******21' } },
    });
    expect(maskEventNumbers({ ...event, contact: group })).toEqual({ ...event, contact: group });
    expect(maskEventNumbers(event)).toEqual(event);
  });
});
