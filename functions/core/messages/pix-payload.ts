/**
 * The PIX "copia e cola" payload (BR Code): an EMV QR Code Merchant-Presented Mode string as the Banco
 * Central do Brasil specifies it for static PIX charges (Manual de Padrões para Iniciação do Pix). Each
 * field is `<id, 2 digits><length, 2 digits><value>`; the last field is the CRC16-CCITT (polynomial 0x1021,
 * initial 0xFFFF) of everything before it, including its own `6304` header, in 4 upper-case hex digits.
 * Written here rather than taken from npm: it is 60 lines, and the known-good example of the BCB manual is
 * its unit test (test/unit/pix-payload.test.ts).
 */
export const PIX_KEY_TYPES = ['CNPJ', 'CPF', 'PHONE', 'EMAIL', 'EVP'] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

export interface PixCharge {
  /** The receiver's key, already normalised (see normalisePixKey). */
  key: string;
  merchantName: string;
  merchantCity: string;
  /** In reais; absent for a charge where the payer types the amount. */
  amount?: number;
  /** Transaction id (`***` when none: the BCB's value for static codes). */
  txid?: string;
  /** A message to the payer (field 26-02), optional. */
  description?: string;
}

const field = (id: string, value: string): string => {
  const length = Buffer.byteLength(value, 'utf8');
  if (length > 99) throw new Error(`PIX field ${id} is longer than 99 bytes`);
  return `${id}${String(length).padStart(2, '0')}${value}`;
};

export const crc16 = (text: string): string => {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
};

/** Upper-case-free ASCII as the payload's name and city fields allow: accents folded, limited length. */
export const pixText = (text: string, max: number): string =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/[^A-Za-z0-9 .,\-/]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max);

export const buildPixPayload = (charge: PixCharge): string => {
  const account =
    field('00', 'br.gov.bcb.pix') +
    field('01', charge.key) +
    (charge.description ? field('02', charge.description) : '');
  const body =
    field('00', '01') +
    field('26', account) +
    field('52', '0000') +
    field('53', '986') +
    (charge.amount !== undefined ? field('54', charge.amount.toFixed(2)) : '') +
    field('58', 'BR') +
    field('59', pixText(charge.merchantName, 25)) +
    field('60', pixText(charge.merchantCity, 15)) +
    field('62', field('05', charge.txid ?? '***')) +
    '6304';
  return body + crc16(body);
};

/**
 * The key as PIX expects it, or the reason it is not one: PHONE gets `+55` when it lacks it (core spec §5),
 * CPF and CNPJ are digits only, EMAIL lower case, EVP a random key (UUID).
 */
export const normalisePixKey = (type: PixKeyType, raw: string): { key: string } | { reason: string } => {
  const value = raw.trim();
  const digits = value.replace(/\D/g, '');
  switch (type) {
    case 'PHONE': {
      if (digits.length < 10 || digits.length > 13) return { reason: 'must be a phone number with area code' };
      if (value.startsWith('+55')) return { key: `+${digits}` };
      // A number already carrying the country code (55 + 2-digit area + 8–9 digits) keeps it.
      return { key: digits.startsWith('55') && digits.length >= 12 ? `+${digits}` : `+55${digits}` };
    }
    case 'CPF':
      return digits.length === 11 ? { key: digits } : { reason: 'a CPF has 11 digits' };
    case 'CNPJ':
      return digits.length === 14 ? { key: digits } : { reason: 'a CNPJ has 14 digits' };
    case 'EMAIL':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) && value.length <= 77
        ? { key: value.toLowerCase() }
        : { reason: 'must be an e-mail address' };
    case 'EVP':
      return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
        ? { key: value.toLowerCase() }
        : { reason: 'a random key is a UUID' };
  }
};
