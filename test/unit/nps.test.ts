import { describe, expect, it } from 'vitest';
import { parseScore, ratingApplies, ratingOf } from '../../functions/core/tickets/nps';

describe('NPS rules', () => {
  it('reads a whole answer of 0–10 as the score, nothing else', () => {
    expect(['0', ' 7 ', '10', '9.', '08'].map(parseScore)).toEqual([0, 7, 10, 9, 8]);
    expect(['11', 'nota 9', '9/10', '', '-1', '7,5', 'dez'].map(parseScore)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('shows 0–10 as 1–5: 0–2 → 1, 3–4 → 2, 5–6 → 3, 7–8 → 4, 9–10 → 5', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(ratingOf)).toEqual([1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
  });

  it('asks for a rating only with the setting on, a rating message, and not for groups', () => {
    const ticket = { isGroup: false, status: 'open' as const };
    expect(ratingApplies({ userRating: true }, { ratingMessage: 'Nota?' }, ticket)).toBe(true);
    expect(ratingApplies({ userRating: false }, { ratingMessage: 'Nota?' }, ticket)).toBe(false);
    expect(ratingApplies({ userRating: true }, { ratingMessage: '  ' }, ticket)).toBe(false);
    expect(ratingApplies({ userRating: true }, { ratingMessage: 'Nota?' }, { ...ticket, isGroup: true })).toBe(false);
  });
});
