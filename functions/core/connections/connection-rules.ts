import type { FieldError } from '../../shared/errors';
import type { Connection } from '../../data/connection-repository';

/**
 * The spec's connection rules that span fields (core §5 "Connection"), checked on the connection as it
 * would be after the change. A create checks every rule; an update checks the rules whose fields it
 * touches, like the company settings' pairs (D17) — so enabling ticket rating for the company, or a date
 * drifting past "2 years ago", never blocks an unrelated edit. Single-field shapes (name 2–50, HH:MM times,
 * numbers) are the HTTP schema's.
 */
export const CONNECTION_MESSAGES = {
  /** Spec text (frontend key errorSendQueue), named on both fields of the pair. */
  sendQueuePair:
    'Foi informado tempo para redirecionar fila, porém não foi selecionada fila para redirecionar. Os dois campos precisam estar preenchidos',
  /** Spec text (errorExpiresNPS). */
  npsWaitTime: 'É obrigado informar um tempo para avaliação quando se utiliza o NPS.',
  /** Spec text (errorRatingMessage). */
  npsRatingMessage: 'É obrigado informar uma mensagem de avaliação quando se utiliza o NPS.',
  /** ERR_WAPP_GREETING_REQUIRED as the app translates it. */
  greetingRequired: 'A mensagem de saudação é obrigatória quando há mais de uma fila.',
  vacationDates: 'Obrigatório quando há mensagem de férias coletivas',
  vacationOrder: 'O fim das férias coletivas não pode ser antes do início',
  importFuture: 'A data não pode estar no futuro',
  importTooOld: 'A data não pode ser anterior a 2 anos atrás',
  importRecentBeforeOld: 'A data das mensagens recentes não pode ser anterior à data das mensagens antigas',
} as const;

export type RuleInput = Pick<
  Connection,
  | 'queueIds'
  | 'greetingMessage'
  | 'sendIdQueue'
  | 'timeSendQueue'
  | 'ratingMessage'
  | 'expiresTicketNPS'
  | 'collectiveVacationStart'
  | 'collectiveVacationEnd'
  | 'collectiveVacationMessage'
  | 'importOldMessages'
  | 'importRecentMessages'
>;

const blank = (s: string | null | undefined) => (s ?? '').trim() === '';
const day = (s: string) => s.slice(0, 10);

/**
 * @param ctx.npsInUse the company rates tickets (company setting `userRating` enabled): then connections
 *   need the rating message and a non-zero wait time for the answer.
 * @param ctx.touched the fields an update sends; absent on create (every rule applies).
 */
export const connectionRuleErrors = (
  c: RuleInput,
  ctx: { npsInUse: boolean; now?: Date; touched?: ReadonlySet<string> },
): FieldError[] => {
  const errors: FieldError[] = [];
  const add = (field: string, reason: string) => errors.push({ field: `body.${field}`, reason });
  const applies = (...fields: (keyof RuleInput)[]) => !ctx.touched || fields.some((f) => ctx.touched!.has(f));

  const hasTime = (c.timeSendQueue ?? 0) > 0;
  const hasQueue = c.sendIdQueue !== null && c.sendIdQueue !== undefined;
  if (applies('sendIdQueue', 'timeSendQueue') && hasTime !== hasQueue) {
    add('sendIdQueue', CONNECTION_MESSAGES.sendQueuePair);
    add('timeSendQueue', CONNECTION_MESSAGES.sendQueuePair);
  }

  if (ctx.npsInUse && applies('ratingMessage', 'expiresTicketNPS')) {
    if (!((c.expiresTicketNPS ?? 0) > 0)) add('expiresTicketNPS', CONNECTION_MESSAGES.npsWaitTime);
    if (blank(c.ratingMessage)) add('ratingMessage', CONNECTION_MESSAGES.npsRatingMessage);
  }

  if (applies('queueIds', 'greetingMessage') && (c.queueIds ?? []).length > 1 && blank(c.greetingMessage)) {
    add('greetingMessage', CONNECTION_MESSAGES.greetingRequired);
  }

  const vacation = applies('collectiveVacationMessage', 'collectiveVacationStart', 'collectiveVacationEnd');
  if (vacation && !blank(c.collectiveVacationMessage)) {
    if (blank(c.collectiveVacationStart)) add('collectiveVacationStart', CONNECTION_MESSAGES.vacationDates);
    if (blank(c.collectiveVacationEnd)) add('collectiveVacationEnd', CONNECTION_MESSAGES.vacationDates);
  }
  if (
    vacation &&
    !blank(c.collectiveVacationStart) &&
    !blank(c.collectiveVacationEnd) &&
    c.collectiveVacationEnd! < c.collectiveVacationStart!
  ) {
    add('collectiveVacationEnd', CONNECTION_MESSAGES.vacationOrder);
  }

  const now = ctx.now ?? new Date();
  const today = now.toISOString().slice(0, 10);
  const twoYearsAgo = new Date(now);
  twoYearsAgo.setUTCFullYear(twoYearsAgo.getUTCFullYear() - 2);
  const oldest = twoYearsAgo.toISOString().slice(0, 10);
  for (const field of ['importOldMessages', 'importRecentMessages'] as const) {
    const value = c[field];
    if (blank(value) || !applies(field)) continue;
    if (day(value!) > today) add(field, CONNECTION_MESSAGES.importFuture);
    else if (day(value!) < oldest) add(field, CONNECTION_MESSAGES.importTooOld);
  }
  if (
    applies('importOldMessages', 'importRecentMessages') &&
    !blank(c.importOldMessages) &&
    !blank(c.importRecentMessages) &&
    day(c.importRecentMessages!) < day(c.importOldMessages!)
  ) {
    add('importRecentMessages', CONNECTION_MESSAGES.importRecentBeforeOld);
  }
  return errors;
};
