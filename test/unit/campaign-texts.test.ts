import { describe, expect, it } from 'vitest';
import {
  confirmationText,
  fillVariables,
  SENDABLE_NUMBER,
  variantFor,
  variantsOf,
} from '../../functions/core/campaigns/campaign-dispatch';

/**
 * The pure rules of a campaign's texts (decisions D133): which variants exist, which one a number draws
 * (stable and even), the confirmation text of a variant, and the variables.
 */
const empty = { message1: '', message2: '', message3: '', message4: '', message5: '' };
const noConfirmations = {
  confirmationMessage1: '',
  confirmationMessage2: '',
  confirmationMessage3: '',
  confirmationMessage4: '',
  confirmationMessage5: '',
};

describe('campaign variants', () => {
  it('are the non-empty messages', () => {
    expect(variantsOf({ ...empty, message2: 'b', message5: 'e', message3: '   ' })).toEqual([2, 5]);
    expect(variantsOf(empty)).toEqual([]);
  });

  it('a number always draws the same variant, and many numbers spread evenly', () => {
    const variants = [1, 2, 3];
    const numbers = Array.from({ length: 3000 }, (_, i) => `5511${String(900000000 + i * 7919)}`);
    const drawn = numbers.map((n) => variantFor(variants, n));
    expect(numbers.map((n) => variantFor(variants, n))).toEqual(drawn);
    for (const v of variants) {
      const share = drawn.filter((d) => d === v).length / numbers.length;
      expect(share).toBeGreaterThan(0.28);
      expect(share).toBeLessThan(0.39);
    }
    expect(variantFor([4], '5511999990000')).toBe(4);
  });

  it('the confirmation text is the variant’s own, else the first written', () => {
    const c = { ...noConfirmations, confirmationMessage2: 'Posso enviar?', confirmationMessage4: 'Confirma?' };
    expect(confirmationText(c, 4)).toBe('Confirma?');
    expect(confirmationText(c, 1)).toBe('Posso enviar?');
    expect(confirmationText(noConfirmations, 1)).toBe('');
  });
});

describe('campaign variables', () => {
  it('fills {nome}, {email}, {numero} and the custom ones; leaves unknown ones as typed', () => {
    const text = fillVariables(
      'Oi {nome} ({email}, {numero}): use {promo} em {loja}; {desconhecida} {nome}',
      { name: 'Ana', email: 'ana@x.test', number: '5511999990001' },
      [
        { key: 'promo', value: 'PROMO10' },
        { key: 'loja', value: 'Centro' },
        { key: 'nome', value: 'não substitui o contato' },
      ],
    );
    expect(text).toBe('Oi Ana (ana@x.test, 5511999990001): use PROMO10 em Centro; {desconhecida} Ana');
  });

  it('a sendable number is 8 to 15 digits', () => {
    expect(SENDABLE_NUMBER.test('5511999990001')).toBe(true);
    expect(SENDABLE_NUMBER.test('1234567')).toBe(false);
    expect(SENDABLE_NUMBER.test('55 11 99999')).toBe(false);
  });
});
