import { describe, expect, it, vi } from 'vitest';
import type { InboundEventInput } from '../../functions/channels/inbound';
import type { Session, SessionEvents } from '../../functions/channels/whatsapp/driver';
import {
  createSimulatorDriver,
  simulatedChatId,
  type SimulatedPhone,
} from '../../functions/channels/whatsapp/simulator-driver';
import { inboundEventSchema } from '../../functions/core/pipeline/inbound-event';
import type { ReceivedMessage } from '../../functions/data/simulator-phone-repository';

/**
 * The simulated session's customer side (decisions D41) without DynamoDB: the customers' phones are a map,
 * the inbound sink a list. What reaches the sink must be a valid D31 event, exactly like Baileys'.
 */
const memoryPhone = (): SimulatedPhone & { items: ReceivedMessage[] } => {
  const items: ReceivedMessage[] = [];
  let n = 0;
  return {
    items,
    record: async (_c, _w, message) => {
      if (items.some((i) => i.providerMessageId === message.providerMessageId)) return null;
      n += 1;
      const received = {
        ...message,
        sk: `R#${String(n).padStart(26, '0')}`,
        ack: 0,
        receivedAt: new Date().toISOString(),
      };
      items.push(received);
      return received;
    },
    list: async (_c, _w, options = {}) => ({
      messages: items.filter((i) => !options.after || i.sk > options.after),
      hasMore: false,
    }),
    raiseAck: async (_c, _w, sk, ack) => {
      const item = items.find((i) => i.sk === sk);
      if (!item || item.ack >= ack) return false;
      item.ack = ack;
      return true;
    },
  };
};

const noop = () => undefined;

const connectedSession = async (phone: SimulatedPhone) => {
  const sink: InboundEventInput[] = [];
  const connected = vi.fn();
  const events: SessionEvents = { qr: noop, pairing: noop, connected, disconnected: noop, credsUpdate: noop };
  const session: Session = createSimulatorDriver({ deliveredMs: 20, phone }).start(
    {
      creds: { simulator: true, number: '5500000000042', pairedAt: 'x' },
      keys: { get: async () => ({}), set: noop as never },
    },
    events,
    { companyId: 7, whatsappId: 42, inbound: async (e) => void sink.push(e) },
  );
  await vi.waitFor(() => expect(connected).toHaveBeenCalledWith('5500000000042'));
  return { session, sink };
};

describe('the simulated customer', () => {
  it('receives a send once, reports delivered, and reads on demand', async () => {
    const phone = memoryPhone();
    const { session, sink } = await connectedSession(phone);
    const send = {
      chatId: '5511999990000@s.whatsapp.net',
      providerMessageId: '3EB0AAAAAAAAAAAAAAAAAA',
      content: { type: 'text' as const, body: 'Olá' },
    };
    await expect(session.send!(send)).resolves.toEqual({ providerMessageId: '3EB0AAAAAAAAAAAAAAAAAA' });
    await session.send!(send); // a retry with the same id
    expect(phone.items).toHaveLength(1);
    expect(phone.items[0]).toMatchObject({ type: 'text', body: 'Olá', chatId: send.chatId });

    await vi.waitFor(() => expect(sink).toHaveLength(1));
    expect(sink[0]).toEqual({
      kind: 'ack',
      companyId: 7,
      whatsappId: 42,
      chat: { id: send.chatId, isGroup: false },
      providerMessageId: '3EB0AAAAAAAAAAAAAAAAAA',
      ack: 2,
    });
    await session.simulate!({ action: 'read', ack: 3, customer: { number: '5511999990000' } });
    expect(sink.at(-1)).toMatchObject({ kind: 'ack', ack: 3 });
    await session.simulate!({ action: 'read', ack: 3 });
    expect(sink).toHaveLength(2); // already read: nothing new
    await session.close();
  });

  it('writes as a contact, or as a group participant, in D31 shape', async () => {
    const { session, sink } = await connectedSession(memoryPhone());
    await session.simulate!({
      action: 'message',
      customer: { number: '5511999990000', name: 'Ana' },
      providerMessageId: '3A00000000000000000001',
      content: { type: 'text', body: 'Oi' },
    });
    await session.simulate!({
      action: 'message',
      customer: { number: '5511999990001', name: 'Bia', group: { id: '120363000000000001', name: 'Clientes' } },
      providerMessageId: '3A00000000000000000002',
      content: { type: 'reaction', emoji: '👍', targetProviderMessageId: '3EB0AAAAAAAAAAAAAAAAAA' },
    });
    for (const event of sink) expect(inboundEventSchema.safeParse(event).success, JSON.stringify(event)).toBe(true);
    expect(sink[0]).toMatchObject({
      chat: { id: '5511999990000@s.whatsapp.net', isGroup: false },
      contact: { phone: '5511999990000', pushName: 'Ana' },
      fromMe: false,
    });
    expect(sink[1]).toMatchObject({
      chat: { id: '120363000000000001@g.us', isGroup: true, name: 'Clientes' },
      participant: { phone: '5511999990001', pushName: 'Bia' },
    });
    expect(simulatedChatId({ number: '1', group: { id: '99' } })).toBe('99@g.us');
    await session.close();
  });

  it('refuses to send or act once closed', async () => {
    const { session } = await connectedSession(memoryPhone());
    await session.close();
    await expect(
      session.send!({ chatId: 'x@s.whatsapp.net', providerMessageId: '3EB0', content: { type: 'text', body: 'x' } }),
    ).rejects.toThrow(/not connected/);
  });
});
