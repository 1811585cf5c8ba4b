import { dueScheduleMessage, handleDueSchedule } from '../../core/schedules/schedule-sender';
import { sqsConsumer } from '../consumer';

/**
 * The `schedule` queue's consumer (decisions D118): one due occurrence of a scheduled message per record,
 * claimed, paced by the send governor and sent once (functions/core/schedules/schedule-sender.ts).
 */
export const handler = sqsConsumer({
  name: 'scheduled message',
  schema: dueScheduleMessage,
  describe: (m) => ({ companyId: m.companyId, scheduleId: m.scheduleId, sendAt: m.sendAt }),
  handle: (m) => handleDueSchedule(m),
});
