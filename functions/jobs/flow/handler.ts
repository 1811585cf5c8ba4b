import { flowTimerMessage, handleFlowTimer } from '../../core/flows/flow-engine';
import { sqsConsumer } from '../consumer';

/** The `flow` queue's consumer (decisions D139): a run's timer came due, the engine moves the run on. */
export const handler = sqsConsumer({
  name: 'flow timer',
  schema: flowTimerMessage,
  describe: (m) => ({ companyId: m.companyId, ticketId: m.ticketId, runId: m.runId, step: m.step }),
  handle: (m) => handleFlowTimer(m),
});
