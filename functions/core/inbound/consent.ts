import { choose } from './chatbot';

/**
 * LGPD consent in the inbound pipeline (core spec §3 Company settings `enableLGPD`, `lgpdMessage`,
 * `lgpdLink`; §4 Ticket status `lgpd`; Contact `lgpdAcceptedAt`; decisions D93). A pure function from the
 * ticket, the contact and the customer's answer to what the pipeline does:
 *
 * - a new ticket of a contact who never accepted, with the setting on: the ticket goes to `lgpd` and the
 *   customer gets the company's LGPD message, its link and a numbered accept/refuse question — and nothing
 *   else (no greeting, no menu, no out-of-hours message) until they answer;
 * - on an `lgpd` ticket the answer `1` (or the option's name) accepts: the contact's `lgpdAcceptedAt` is
 *   stored and routing continues as for a new ticket; `2` refuses: the ticket closes with a short notice;
 *   anything else asks again.
 */
export type ConsentDecision =
  | { action: 'none' }
  | { action: 'ask'; body: string }
  | { action: 'reask'; body: string }
  | { action: 'accept' }
  | { action: 'refuse'; body: string };

export interface ConsentTexts {
  accept: string;
  refuse: string;
  /** When the company turned LGPD on without writing its own message. */
  defaultMessage: string;
  invalid: string;
  refused: string;
}

export const DEFAULT_CONSENT_TEXTS: ConsentTexts = {
  accept: 'Aceito',
  refuse: 'Não aceito',
  defaultMessage:
    'Para seguir com o atendimento, precisamos do seu consentimento para tratar seus dados pessoais, conforme a LGPD.',
  invalid: 'Opção inválida, por favor escolha uma das opções abaixo.',
  refused: 'Sem o seu consentimento não podemos seguir com o atendimento. Este atendimento foi encerrado.',
};

export interface ConsentInput {
  settings: { enableLGPD: string; lgpdMessage: string; lgpdLink: string };
  /** This message opened the ticket. */
  isNew: boolean;
  isGroup: boolean;
  ticket: { status: string; userId: number | null };
  contact: { lgpdAcceptedAt: string | null };
  body: string;
  texts: ConsentTexts;
}

const question = (input: ConsentInput): string => {
  const { settings, texts } = input;
  return [
    settings.lgpdMessage.trim() || texts.defaultMessage,
    settings.lgpdLink.trim(),
    `*1* - ${texts.accept}\n*2* - ${texts.refuse}`,
  ]
    .filter(Boolean)
    .join('\n\n');
};

export const decideConsent = (input: ConsentInput): ConsentDecision => {
  if (input.isGroup) return { action: 'none' };
  if (input.ticket.status === 'lgpd') {
    const chosen = choose(
      [
        { name: input.texts.accept, action: 'accept' as const },
        { name: input.texts.refuse, action: 'refuse' as const },
      ],
      input.body,
    );
    if (chosen?.action === 'accept') return { action: 'accept' };
    if (chosen?.action === 'refuse') return { action: 'refuse', body: input.texts.refused };
    return { action: 'reask', body: `${input.texts.invalid}\n\n${question(input)}` };
  }
  const asks =
    input.settings.enableLGPD === 'enabled' &&
    input.isNew &&
    input.ticket.status === 'pending' &&
    input.ticket.userId === null &&
    !input.contact.lgpdAcceptedAt;
  return asks ? { action: 'ask', body: question(input) } : { action: 'none' };
};
