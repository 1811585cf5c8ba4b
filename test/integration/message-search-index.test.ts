import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../functions/data/client';
import { indexMessageWords, searchMessageTickets } from '../../functions/data/message-search-repository';
import { freshCompany, type TestCompany } from '../helpers/fixtures';

/**
 * The message search index's postings (decisions D47, D80): written with the message, found by word, and
 * not written again for a ticket whose word this process wrote in the last 10 minutes.
 */
let t: TestCompany;
beforeAll(async () => {
  t = await freshCompany();
});

/** The items BatchWrite calls put while `run` runs (a middleware on the real client; nothing is faked). */
const itemsWritten = async (run: () => Promise<void>): Promise<number> => {
  let items = 0;
  const name = `countPostings${Math.random()}`;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'BatchWriteItemCommand') {
        const input = args.input as { RequestItems: Record<string, unknown[]> };
        items += Object.values(input.RequestItems).reduce((n, r) => n + r.length, 0);
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    await run();
  } finally {
    db().middlewareStack.remove(name);
  }
  return items;
};

describe('message search postings', () => {
  it("a ticket's repeated words are written once, new words and other tickets still are, and all are found", async () => {
    const companyId = t.company.id;
    const at = new Date().toISOString();
    const now = Date.now();
    const first = await itemsWritten(() =>
      indexMessageWords(companyId, [{ ticketId: 7001, body: 'Meu pedido atrasou na entrega', createdAt: at }], now),
    );
    expect(first).toBe(4); // meu, pedido, atrasou, entrega ('na' is too short)
    const repeated = await itemsWritten(() =>
      indexMessageWords(
        companyId,
        [{ ticketId: 7001, body: 'O pedido e a entrega, por favor', createdAt: at }],
        now + 1_000,
      ),
    );
    expect(repeated).toBe(1); // only 'favor' is new for this ticket
    const otherTicket = await itemsWritten(() =>
      indexMessageWords(companyId, [{ ticketId: 7002, body: 'pedido novo', createdAt: at }], now + 2_000),
    );
    expect(otherTicket).toBe(2);
    // Ten minutes later the words are written again (their lastSeenAt moves on).
    const later = await itemsWritten(() =>
      indexMessageWords(companyId, [{ ticketId: 7001, body: 'pedido', createdAt: at }], now + 11 * 60_000),
    );
    expect(later).toBe(1);

    const found = await searchMessageTickets(companyId, 'pedido', 10, undefined);
    expect([...found.items].sort()).toEqual([7001, 7002]);
    expect((await searchMessageTickets(companyId, 'favor', 10, undefined)).items).toEqual([7001]);
  });
});
