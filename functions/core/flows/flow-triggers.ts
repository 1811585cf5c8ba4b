import type { Connection } from '../../data/connection-repository';
import type { Contact } from '../../data/contact-repository';
import type { StoredMessage } from '../../data/message-repository';
import type { ReadScope } from '../../data/read-scope';
import type { Ticket } from '../../data/ticket-repository';
import { answerOf } from '../pipeline/message-content';
import { matchPhraseCampaign } from './flow-campaign-service';
import { activeFlowRun, driveFlowRun, startFlowRun } from './flow-engine';

/**
 * Where the inbound pipeline hands a customer's message to flows (decisions D140), on a pending ticket no
 * person has: a run that is not over takes it (an answer, or nothing while it waits for a timer); else a
 * phrase campaign whose phrase it is starts its flow; else, on the message that opened the ticket, the
 * connection's welcome flow (`flowIdWelcome`), or its default flow (`flowIdNotPhrase`) when it has no
 * welcome flow. Answers whether a flow has the message (then neither the greeting nor the chatbot speak).
 */
export const answerWithFlow = async (
  scope: ReadScope,
  connection: Connection,
  ticket: Ticket,
  contact: Contact,
  trigger: StoredMessage,
  isNew: boolean,
): Promise<boolean> => {
  if (ticket.status !== 'pending' || ticket.userId !== null) return false;
  const { companyId } = ticket;
  // Only a bot ticket can have a run going (a run sets isBot when it starts).
  const active = ticket.isBot ? await activeFlowRun(companyId, ticket.id) : null;
  if (active) {
    await driveFlowRun(scope, active, { kind: 'input', body: answerOf(trigger), ulid: trigger.ulid });
    return true;
  }
  const phrase = await matchPhraseCampaign(scope, companyId, connection.id, answerOf(trigger));
  if (phrase) {
    return startFlowRun(scope, ticket, contact, phrase.flowId, { ulid: trigger.ulid, kind: `phrase:${phrase.id}` });
  }
  if (!isNew) return false;
  if (
    connection.flowIdWelcome &&
    (await startFlowRun(scope, ticket, contact, connection.flowIdWelcome, { ulid: trigger.ulid, kind: 'welcome' }))
  ) {
    return true;
  }
  return connection.flowIdNotPhrase
    ? startFlowRun(scope, ticket, contact, connection.flowIdNotPhrase, { ulid: trigger.ulid, kind: 'notPhrase' })
    : false;
};
