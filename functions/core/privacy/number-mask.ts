/**
 * LGPD number masking (core spec §5 "Phone masks"; decisions D42): when the company's `lgpdHideNumber` is
 * enabled, plain users see contact numbers with the middle hidden and the last two digits shown; admins and
 * super users see them whole; group ids are never masked. One pure function, used by every contact answer
 * and event of the contacts area.
 */
export interface NumberViewer {
  profile: 'admin' | 'user';
  super: boolean;
}

/** `5511987654321` → `5511*******21`: the first four characters (country and area code) and the last two. */
export const maskNumber = (number: string): string => {
  if (number.length <= 2) return number;
  if (number.length <= 6) return `${'*'.repeat(number.length - 2)}${number.slice(-2)}`;
  return `${number.slice(0, 4)}${'*'.repeat(number.length - 6)}${number.slice(-2)}`;
};

export const shouldMaskNumbers = (viewer: NumberViewer, hideNumberSetting: string | boolean | undefined): boolean =>
  (hideNumberSetting === 'enabled' || hideNumberSetting === true) && viewer.profile === 'user' && !viewer.super;

/** A contact as one viewer may see it: masked number for plain users when the setting is on, never for groups. */
export const maskContactFor = <C extends { number: string; isGroup: boolean }>(contact: C, mask: boolean): C =>
  mask && !contact.isGroup ? { ...contact, number: maskNumber(contact.number) } : contact;

type MaskableContact = { number: string; isGroup: boolean };

/**
 * A real-time event as a plain user may see it when the company hides numbers: its `contact` and its
 * `ticket.contact` masked (the inbound pipeline's appMessage, ticket and contact events carry both).
 */
export const maskEventNumbers = <E extends object>(event: E): E => {
  const { contact, ticket } = event as { contact?: MaskableContact; ticket?: { contact?: MaskableContact } };
  return {
    ...event,
    ...(contact ? { contact: maskContactFor(contact, true) } : {}),
    ...(ticket?.contact ? { ticket: { ...ticket, contact: maskContactFor(ticket.contact, true) } } : {}),
  };
};
