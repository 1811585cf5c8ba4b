import type { QueueAdminView } from '@/api/queues';
import { defaultSchedules } from '@/components/schedule-editor';

/** A queue as GET /queue answers an admin. */
export const queueRow = (id: number, name: string, overrides: Partial<QueueAdminView> = {}): QueueAdminView => ({
  id,
  name,
  color: '#3366ff',
  orderQueue: id,
  greetingMessage: `Bem-vindo à ${name}`,
  outOfHoursMessage: '',
  schedules: defaultSchedules(),
  closeTicket: false,
  ativarRoteador: false,
  tempoRoteador: 0,
  integrationId: null,
  fileListId: null,
  chatbots: [],
  ...overrides,
});
