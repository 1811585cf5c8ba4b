import { handleIntegrationCall, integrationCallMessage } from '../../core/inbound/integration-runner';
import { sqsConsumer } from '../consumer';

/** The `integration` queue's consumer (decisions D162): a burst's debounced call to its bot. */
export const handler = sqsConsumer({
  name: 'integration call',
  schema: integrationCallMessage,
  describe: (m) => ({ companyId: m.companyId, ticketId: m.ticketId, ulid: m.ulid }),
  handle: (m) => handleIntegrationCall(m),
});
