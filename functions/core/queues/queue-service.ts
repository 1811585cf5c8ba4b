import type { QueueView } from '../../contracts/queues';
import { listQueues, type Queue } from '../../data/queue-repository';
import type { AuthContext } from '../../shared/auth-context';
import { NotFound } from '../../shared/errors';

/**
 * Queues as every signed-in user reads them (core §7 "Other": GET /queue, GET /queue/{id}): the new-ticket,
 * transfer and accept dialogs offer the company's queues. Ordered by `orderQueue`, then name. Managing
 * queues (create, edit, chatbot options) belongs to the administration issue.
 */
const toView = (q: Queue): QueueView => ({
  id: q.id,
  name: q.name,
  color: q.color,
  orderQueue: q.orderQueue ?? null,
  greetingMessage: q.greetingMessage ?? '',
  outOfHoursMessage: q.outOfHoursMessage ?? '',
  schedules: q.schedules ?? [],
});

export const listCompanyQueues = async (auth: AuthContext): Promise<QueueView[]> =>
  (await listQueues(auth.companyId))
    .map(toView)
    .sort((a, b) => (a.orderQueue ?? Infinity) - (b.orderQueue ?? Infinity) || a.name.localeCompare(b.name));

export const showQueue = async (auth: AuthContext, id: number): Promise<QueueView> => {
  const queue = (await listQueues(auth.companyId)).find((q) => q.id === id);
  if (!queue) throw new NotFound('ERR_QUEUE_NOT_FOUND', 'Queue not found');
  return toView(queue);
};
