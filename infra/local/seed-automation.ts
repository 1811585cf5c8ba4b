import { addDays, instantOf, wallKey, wallOf, weekdayOf } from '../../functions/core/outbound/zoned-time';
import { createSchedule, newScheduleId } from '../../functions/data/schedule-repository';

/**
 * The demo company's automatic sends (README "Demo data"): what `/schedules` shows on first start — a
 * monthly reminder to one of the demo's customers on the "WhatsApp Demo" connection, the first at 09:00
 * São Paulo time on the next weekday, six times, moved to the business day before when it falls on a
 * weekend or holiday (tipoDias 5; decisions D118–D120). Written through the product's repository, as the
 * service would.
 */
export interface DemoAutomationInput {
  companyId: number;
  whatsappId: number;
  contact: { id: number; name: string; number: string };
  /** Who scheduled it: the demo admin. */
  userId: number;
}

const ZONE = 'America/Sao_Paulo';

export const seedDemoAutomation = async (input: DemoAutomationInput): Promise<void> => {
  const today = wallOf(new Date(), ZONE);
  let day = addDays(`${today.year}-${String(today.month).padStart(2, '0')}-${String(today.day).padStart(2, '0')}`, 1);
  while ([0, 6].includes(weekdayOf(day))) day = addDays(day, 1);
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const at = instantOf({ year, month, day: date, hour: 9, minute: 0 }, ZONE);
  const local = wallKey(wallOf(at, ZONE));
  const stamp = new Date().toISOString();
  await createSchedule({
    id: await newScheduleId(input.companyId),
    companyId: input.companyId,
    body: 'Olá! Passando para lembrar da sua revisão mensal. Responda esta mensagem para agendar.',
    contactId: input.contact.id,
    contactName: input.contact.name,
    contactNumber: input.contact.number,
    sendAt: at.toISOString(),
    sendAtLocal: local,
    startLocal: local,
    occurrenceIndex: 0,
    status: 'PENDENTE',
    sentAt: null,
    openTicket: 'disabled',
    ticketUserId: null,
    queueId: null,
    statusTicket: 'closed',
    intervalo: 3,
    valorIntervalo: 1,
    enviarQuantasVezes: 6,
    tipoDias: 5,
    assinar: false,
    mediaPath: null,
    mediaName: null,
    mediaType: null,
    mediaSize: null,
    whatsappId: input.whatsappId,
    userId: input.userId,
    sentCount: 0,
    missedCount: 0,
    lastError: null,
    ticketId: null,
    ticketFor: null,
    dueAt: at.toISOString(),
    heldUntil: null,
    claimedAt: null,
    claimToken: null,
    createdAt: stamp,
    updatedAt: stamp,
  });
};
