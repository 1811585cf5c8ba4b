import { randomInt } from 'node:crypto';
import type { FlowTestPosition, FlowTestStart } from '../../contracts/flows';
import { getConnection, updateConnection } from '../../data/connection-repository';
import { findContactIdsByIdentities } from '../../data/contact-repository';
import { flowNotFound, getFlow } from '../../data/flow-repository';
import { latestFlowRun } from '../../data/flow-run-repository';
import { getOpenTicketId } from '../../data/ticket-repository';
import type { AuthContext } from '../../shared/auth-context';
import { config } from '../../shared/config';
import { BadRequest, NotFound } from '../../shared/errors';
import { CHANGED_OR_BUSY, withRetry } from '../../shared/retry';

/**
 * Trying a flow on the phone simulator (issue 17 item 7; decisions D160). Admins only (the route table),
 * and only where the workers run the simulator driver (elsewhere 404, like the simulator's own routes):
 *
 * - `POST /flowbuilder/test {flowId, whatsappId}` makes the saved, active flow the **welcome flow**
 *   (`flowIdWelcome`, the connection dialog's field) of a connected simulated connection and answers a
 *   customer number the company has never seen: that customer's first message opens a new ticket, which
 *   starts the flow's latest version (D140) — the same path a real customer takes.
 * - `GET /flowbuilder/test/{flowId}?whatsappId&number` answers where that customer's run of the flow is
 *   (its current node, status, step, end reason): the contact by its number, its open ticket on the
 *   connection, the ticket's latest run — three key reads, no Scan. The editor polls it while the test
 *   panel is open and highlights the node.
 */
const simulatorOnly = (): void => {
  if (config().WHATSAPP_DRIVER !== 'simulator') {
    throw new NotFound('ERR_NOT_FOUND', 'The phone simulator is not enabled here');
  }
};

const testedFlow = async (auth: AuthContext, flowId: number) => {
  const flow = await getFlow(auth.companyId, flowId);
  if (!flow) throw flowNotFound();
  return flow;
};

const phoneIdentity = (number: string): string => `wa#${number}`;

/** A Brazilian-looking mobile number no contact of the company has (a few draws; collisions are rare). */
const freshCustomerNumber = async (companyId: number): Promise<string> => {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const number = `5599${String(randomInt(100_000_000, 999_999_999))}`;
    const found = await findContactIdsByIdentities(companyId, [phoneIdentity(number)]);
    if (!found.has(phoneIdentity(number))) return number;
  }
  throw new BadRequest('ERR_VALIDATION', 'No free test number, try again');
};

export const startFlowTest = async (
  auth: AuthContext,
  input: { flowId: number; whatsappId: number },
): Promise<FlowTestStart> => {
  simulatorOnly();
  const flow = await testedFlow(auth, input.flowId);
  if (flow.version === 0) {
    throw new BadRequest('ERR_VALIDATION', 'The flow was never saved', [
      { field: 'body.flowId', reason: 'Salve o fluxo antes de testar' },
    ]);
  }
  if (!flow.active) {
    throw new BadRequest('ERR_VALIDATION', 'The flow is off', [
      { field: 'body.flowId', reason: 'Ative o fluxo antes de testar' },
    ]);
  }
  await withRetry(CHANGED_OR_BUSY, async () => {
    const connection = await getConnection(auth.companyId, input.whatsappId);
    if (!connection) throw new NotFound('ERR_NO_WAPP_FOUND', 'Connection not found');
    if (connection.channel !== 'whatsapp' || connection.status !== 'CONNECTED') {
      throw new BadRequest('ERR_VALIDATION', 'The simulated phone is not connected', [
        { field: 'body.whatsappId', reason: 'A conexão precisa estar conectada' },
      ]);
    }
    if (connection.flowIdWelcome !== flow.id) await updateConnection(connection, { flowIdWelcome: flow.id });
  });
  return {
    flowId: flow.id,
    whatsappId: input.whatsappId,
    version: flow.version,
    number: await freshCustomerNumber(auth.companyId),
  };
};

export const flowTestPosition = async (
  auth: AuthContext,
  flowId: number,
  query: { whatsappId?: number | undefined; number?: string | undefined },
): Promise<FlowTestPosition> => {
  simulatorOnly();
  await testedFlow(auth, flowId);
  if (query.whatsappId === undefined || query.number === undefined) return { run: null };
  const identity = phoneIdentity(query.number);
  const contactId = (await findContactIdsByIdentities(auth.companyId, [identity])).get(identity);
  if (contactId === undefined) return { run: null };
  const ticketId = await getOpenTicketId(auth.companyId, contactId, query.whatsappId);
  if (ticketId === null) return { run: null };
  const run = await latestFlowRun(auth.companyId, ticketId);
  if (!run || run.flowId !== flowId) return { run: null };
  return {
    run: {
      runId: run.runId,
      version: run.version,
      nodeId: run.status === 'ended' ? null : run.nodeId,
      status: run.status,
      step: run.step,
      endReason: run.endReason,
    },
  };
};
