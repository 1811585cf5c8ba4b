import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { enqueueInbound } from '../../functions/channels/inbound';
import type { FlowConnection, FlowNode, FlowView } from '../../functions/contracts/flows';
import type { Connection } from '../../functions/data/connection-repository';
import { createContact } from '../../functions/data/contact-repository';
import { latestFlowRun } from '../../functions/data/flow-run-repository';
import { getProviderRef, listTicketMessages, type StoredMessage } from '../../functions/data/message-repository';
import { createTicket } from '../../functions/data/ticket-repository';
import { SHARED_READS } from '../../functions/jobs/inbound/handler';
import { waitFor } from './connections';
import { api, type TestCompany } from './fixtures';

/**
 * Flow documents and a customer talking to them through the real inbound pipeline (issue 17; decisions
 * D138–D141, D173), shared by the flow test files: build nodes and edges, save a flow, start it by a phrase
 * campaign, write as the customer on the inbound queue and wait for what the flow sent.
 */
export const node = (id: string, type: FlowNode['type'], data: Record<string, unknown> = {}): FlowNode => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data,
});
export const edge = (source: string, target: string, sourceHandle?: string): FlowConnection => ({
  source,
  target,
  ...(sourceHandle ? { sourceHandle } : {}),
});
export const chain = (...ids: string[]): FlowConnection[] => ids.slice(1).map((id, i) => edge(ids[i]!, id));

/**
 * The inbound job may reuse what it read of a company's configuration (connections, phrase campaigns) for
 * up to SHARED_READS.configMs (decisions D67): a customer writes only after that bound once it changed.
 */
export const configSettles = () => new Promise((resolve) => setTimeout(resolve, SHARED_READS.configMs + 100));
export const phone = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
export const pid = () => `3EB0${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`;
export const sentBy = (messages: StoredMessage[]) => messages.filter((m) => m.fromMe);

/** The calls of a test file's company `t()` on its connected connection `connection()`. */
export const flowWorld = (t: () => TestCompany, connection: () => Connection) => {
  const admin = () => api(t().adminToken);

  const newFlow = async (name = `Fluxo ${randomUUID().slice(0, 6)}`): Promise<FlowView> => {
    const res = await admin().post('/flowbuilder', { name });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as FlowView;
  };

  const save = async (flowId: number, nodes: FlowNode[], connections: FlowConnection[]) => {
    const res = await admin().post('/flowbuilder/flow', { idFlow: flowId, nodes, connections });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { flow: FlowView };
  };

  /** A flow saved with this document and a phrase campaign that starts it; answers the flow and its phrase. */
  const flowWithPhrase = async (nodes: FlowNode[], connections: FlowConnection[]) => {
    const flow = await newFlow();
    await save(flow.id, nodes, connections);
    const phrase = `quero ${randomUUID().slice(0, 8)}`;
    const res = await admin().post('/flowcampaign', {
      name: `Campanha ${flow.id}`,
      flowId: flow.id,
      whatsappId: connection().id,
      phrase,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await configSettles();
    return { flow, phrase };
  };

  /** The customer writes on the connection (through the inbound queue); answers the ticket once stored. */
  const say = async (number: string, body: string): Promise<number> => {
    const providerMessageId = pid();
    await enqueueInbound({
      kind: 'message',
      companyId: t().company.id,
      whatsappId: connection().id,
      chat: { id: `${number}@s.whatsapp.net` },
      providerMessageId,
      fromMe: false,
      timestamp: new Date().toISOString(),
      contact: { phone: number, pushName: 'Maria Souza' },
      content: { type: 'text', body },
    });
    const ref = await waitFor(
      () => getProviderRef(t().company.id, connection().id, providerMessageId),
      (r) => r !== null,
      { what: `message ${body} stored` },
    );
    return ref!.ticketId;
  };

  /** Waits until the flow has sent at least `n` messages on the ticket; answers them, oldest first. */
  const flowSent = async (ticketId: number, n: number, what = `${n} flow messages`): Promise<StoredMessage[]> =>
    waitFor(
      async () => sentBy(await listTicketMessages(t().company.id, ticketId)),
      (sent) => sent.length >= n,
      { what, timeoutMs: 30_000 },
    );

  const runEnded = (ticketId: number) =>
    waitFor(
      () => latestFlowRun(t().company.id, ticketId),
      (run) => run?.status === 'ended',
      { what: 'the run ended', timeoutMs: 30_000 },
    );

  /** A customer with a new number and a pending ticket on the connection, made in storage (no inbound). */
  const customerTicket = async (name: string) => {
    const number = phone();
    const contact = await createContact(
      t().company.id,
      { name, number, isGroup: false, channel: 'whatsapp', whatsappId: null },
      [`wa#${number}`],
    );
    const ticket = await createTicket(t().company.id, {
      status: 'pending',
      queueId: null,
      userId: null,
      contactId: contact.id,
      whatsappId: connection().id,
      channel: 'whatsapp',
      isGroup: false,
      chatId: `${number}@s.whatsapp.net`,
      origin: 'passive',
    });
    return { number, contact, ticket };
  };

  return { newFlow, save, flowWithPhrase, say, flowSent, runEnded, customerTicket };
};
