/** Core spec §9: lists cut the last message at 40 characters and the contact name at 60. */
export const LAST_MESSAGE_MAX = 40;
export const CONTACT_NAME_MAX = 60;
/** Core spec §9: lists show at most 2 tags, the rest as +N. */
export const LIST_TAGS_MAX = 2;

/** Cuts `text` to `max` characters with an ellipsis (counting code points, so emoji are not split). */
export const truncate = (text: string, max: number): string => {
  const chars = Array.from(text ?? '');
  return chars.length > max ? `${chars.slice(0, max).join('')}...` : text;
};

const pad = (n: number) => String(n).padStart(2, '0');

/** Core spec §9: HH:mm when the moment is today (browser time), else dd/MM/yyyy. */
export const formatListTime = (iso: string, now = new Date()): string => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const today =
    date.getFullYear() === now.getFullYear() && date.getMonth() === now.getMonth() && date.getDate() === now.getDate();
  return today
    ? `${pad(date.getHours())}:${pad(date.getMinutes())}`
    : `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
};

/** HH:mm of a message. */
export const formatClock = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : `${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

/** DD/MM/YY HH:mm (the notes of the contact drawer, core spec §2). */
export const formatShortDateTime = (iso: string): string => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${pad(date.getFullYear() % 100)} ${pad(
    date.getHours(),
  )}:${pad(date.getMinutes())}`;
};

/** dd/MM/yyyy of a message day (the chat's day separators). */
export const formatDay = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
};

/**
 * Core spec §5 phone masks: 12 digits +CC (AA) NNNN-NNNN, 13 digits +CC (AA) NNNNN-NNNN. Anything else
 * (a masked LGPD number, a group id, another country's length) is shown as the server sent it.
 */
export const formatPhone = (number: string): string => {
  if (!/^\d+$/.test(number)) return number;
  if (number.length === 12)
    return `+${number.slice(0, 2)} (${number.slice(2, 4)}) ${number.slice(4, 8)}-${number.slice(8)}`;
  if (number.length === 13)
    return `+${number.slice(0, 2)} (${number.slice(2, 4)}) ${number.slice(4, 9)}-${number.slice(9)}`;
  return number;
};
