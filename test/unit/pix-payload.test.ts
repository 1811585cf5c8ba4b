import { describe, expect, it } from 'vitest';
import {
  callSchema,
  copySchema,
  listSchema,
  pixContent,
  pixSchema,
  urlSchema,
} from '../../functions/core/messages/interactive';
import { buildPixPayload, crc16, normalisePixKey } from '../../functions/core/messages/pix-payload';

/** The static BR Code example of the Banco Central's "Manual de Padrões para Iniciação do Pix". */
const BCB_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

/** Reads an EMV payload back into its fields (id → value), checking every length on the way. */
const fields = (payload: string): Map<string, string> => {
  const out = new Map<string, string>();
  for (let i = 0; i < payload.length;) {
    const id = payload.slice(i, i + 2);
    const length = Number(payload.slice(i + 2, i + 4));
    out.set(id, payload.slice(i + 4, i + 4 + length));
    i += 4 + length;
  }
  return out;
};

describe('the PIX "copia e cola" payload', () => {
  it('builds the Banco Central’s published example byte for byte, CRC included', () => {
    expect(
      buildPixPayload({
        key: '123e4567-e12b-12d1-a456-426655440000',
        merchantName: 'Fulano de Tal',
        merchantCity: 'BRASILIA',
      }),
    ).toBe(BCB_EXAMPLE);
    expect(crc16(BCB_EXAMPLE.slice(0, -4))).toBe('1D3D');
  });

  it('carries the amount with two decimals, folds accents and cuts the name to 25 characters', () => {
    const payload = buildPixPayload({
      key: '+5511999998888',
      merchantName: 'Padaria São João do Açúcar e Café Ltda',
      merchantCity: 'São Paulo',
      amount: 10.5,
    });
    const f = fields(payload);
    expect(f.get('54')).toBe('10.50');
    expect(f.get('59')).toBe('Padaria Sao Joao do Acuca');
    expect(f.get('60')).toBe('Sao Paulo');
    expect(fields(f.get('26')!).get('01')).toBe('+5511999998888');
    expect(payload.slice(-8, -4)).toBe('6304');
    expect(crc16(payload.slice(0, -4))).toBe(payload.slice(-4));
  });

  it('prefixes +55 to a PHONE key that lacks it and keeps one that has it (core §5)', () => {
    expect(normalisePixKey('PHONE', '(11) 99999-8888')).toEqual({ key: '+5511999998888' });
    expect(normalisePixKey('PHONE', '5511999998888')).toEqual({ key: '+5511999998888' });
    expect(normalisePixKey('PHONE', '+55 11 99999-8888')).toEqual({ key: '+5511999998888' });
    expect(normalisePixKey('PHONE', '123')).toHaveProperty('reason');
  });

  it('checks CPF, CNPJ, EMAIL and EVP keys', () => {
    expect(normalisePixKey('CPF', '123.456.789-09')).toEqual({ key: '12345678909' });
    expect(normalisePixKey('CPF', '1234')).toHaveProperty('reason');
    expect(normalisePixKey('CNPJ', '12.345.678/0001-95')).toEqual({ key: '12345678000195' });
    expect(normalisePixKey('EMAIL', 'Loja@Exemplo.com')).toEqual({ key: 'loja@exemplo.com' });
    expect(normalisePixKey('EMAIL', 'nope')).toHaveProperty('reason');
    expect(normalisePixKey('EVP', '123E4567-E12B-12D1-A456-426655440000')).toEqual({
      key: '123e4567-e12b-12d1-a456-426655440000',
    });
    expect(normalisePixKey('EVP', 'abc')).toHaveProperty('reason');
  });
});

describe('interactive message inputs (core §5)', () => {
  it('PIX: amount with a comma, key normalised, the payload is the text the customer gets', () => {
    const input = pixSchema.parse({
      title: 'Pedido 42',
      sendvalue: '1.234,56',
      sendkey_type: 'PHONE',
      sendmerchant_name: 'Loja',
      sendKey: '11999998888',
    });
    expect(input).toMatchObject({ sendvalue: 1234.56, sendKey: '+5511999998888' });
    const content = pixContent(input);
    expect(fields(content.body).get('54')).toBe('1234.56');
    expect(JSON.parse(content.dataJson)).toMatchObject({ type: 'pix', sendkey_type: 'PHONE', payload: content.body });
  });

  it('PIX: a bad key type, a zero amount and a bad key are refused with their fields', () => {
    const result = pixSchema.safeParse({ sendvalue: 0, sendkey_type: 'RANDOM', sendmerchant_name: '', sendKey: 'x' });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['sendvalue', 'sendkey_type', 'sendmerchant_name']));
    const key = pixSchema.safeParse({ sendvalue: 5, sendkey_type: 'CPF', sendmerchant_name: 'Loja', sendKey: '12' });
    expect(key.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['sendKey', 'a CPF has 11 digits']]);
  });

  it('copy needs the text to copy, URL a link, call a number, a list a title and options', () => {
    expect(copySchema.safeParse({ body: 'Seu cupom' }).error!.issues[0]!.path).toEqual(['copyCode']);
    expect(urlSchema.safeParse({ body: 'Site', url: 'javascript:alert(1)' }).success).toBe(false);
    expect(urlSchema.parse({ url: 'https://exemplo.com/p?x=1' }).url).toBe('https://exemplo.com/p?x=1');
    expect(callSchema.parse({ phoneNumber: '+55 (11) 99999-8888' }).phoneNumber).toBe('5511999998888');
    expect(callSchema.safeParse({ phoneNumber: 'abc' }).success).toBe(false);
    expect(listSchema.safeParse({ body: 'Escolha', sections: [] }).error!.issues.map((i) => i.path[0])).toEqual(
      expect.arrayContaining(['title', 'sections']),
    );
    const eleven = Array.from({ length: 11 }, (_, i) => ({ title: `Opção ${i}` }));
    expect(listSchema.safeParse({ title: 'Menu', body: 'Escolha', sections: [{ rows: eleven }] }).success).toBe(false);
  });
});
