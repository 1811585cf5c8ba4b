import { numberDigits } from '../data/contact-repository';

/**
 * The number a spreadsheet row names, in the form the phone identity (`wa#<digits>`, data-model §2.12)
 * keeps, so one person is one contact however the sheet writes it (decisions D105): the digits the contact
 * upsert keeps (`numberDigits`: spaces, `+`, dashes, dots and parentheses go), then Brazil's habits — an
 * international `00` prefix dropped, a national number (area code + 8 or 9 digits, 10–11 digits) given
 * the country code 55, and a mobile written the old way with 8 digits (first digit 6–9 after the area
 * code) given its ninth digit. Null when fewer than 8 digits remain (the row is ignored).
 */
export const importNumber = (raw: string): string | null => {
  let digits = numberDigits(raw);
  if (digits.startsWith('00')) digits = digits.slice(2);
  if (digits.length === 10 || digits.length === 11) digits = `55${digits}`;
  if (digits.length === 12 && digits.startsWith('55') && /[6-9]/.test(digits[4]!)) {
    digits = `${digits.slice(0, 4)}9${digits.slice(4)}`;
  }
  return digits.length >= 8 && digits.length <= 20 ? digits : null;
};
