import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PaymentProviderName, RecurrenceName } from '../contracts/billing';
import { Conflict, NotFound } from '../shared/errors';
import { db, tableName } from './client';
import { companyKeys, type Company } from './company-repository';
import { nextId } from './counter-repository';
import { queryDueBucket } from './due-index';
import { mapDynamoErrors } from './errors';
import { company, fnv1a, pad } from './keys';
import { queryPage, type Page } from './query-page';
import { transactWrite } from './transactions';

/**
 * Invoices, charges and the company's renewal timer (docs/data-model.md §2.3, §2.29; decisions D152, D153):
 *
 * - invoice `C#<c>#INVOICE / INVOICE#<pad id>` (ids from the platform counter `invoice`: providers need
 *   platform-unique references), listed newest first with one Query;
 * - period guard `C#<c>#INVOICE / PERIOD#<dueDate>`: one invoice per (company, period), claimed in the
 *   invoice's own transaction;
 * - charge `PAYMENT#<provider>#<chargeId> / PAYMENT` → (companyId, invoiceId, amount); while open it sits in
 *   the sparse gsi4 partition `DUE#CHARGE#<s>` that the reconcile job polls;
 * - provider event `PAYEVENT#<provider>#<eventId> / PAYEVENT`: a webhook delivery claimed once;
 * - renewal timer on the company item: gsi4 `DUE#RENEWAL#<day>#<s>` → `<pc>`, armed for dueDate − 10 days
 *   (today when that is past), handled by the billing tick, which makes the period's invoice.
 */
export interface InvoicePayment {
  provider: PaymentProviderName;
  chargeId: string;
  amount: number;
  /** PIX copy-and-paste code and its image, or the provider's payment page. */
  qrcode?: { qrcode: string; imagemQrcode?: string };
  url?: string;
  /** The provider's own id when `chargeId` is our reference (Mercado Pago's preference, decisions D167). */
  providerRef?: string;
  createdAt: string;
}

export interface Invoice {
  id: number;
  companyId: number;
  detail: string;
  users: number;
  connections: number;
  queues: number;
  value: number;
  dueDate: string;
  status: 'open' | 'paid';
  planId: number;
  recurrence: RecurrenceName;
  /** Priced by the checkout's Personalizar step: a plan's new value no longer changes it. */
  custom?: boolean;
  payment?: InvoicePayment;
  paidAt?: string;
  createdAt: string;
  updatedAt: string;
}

export interface Charge {
  provider: PaymentProviderName;
  chargeId: string;
  companyId: number;
  invoiceId: number;
  amount: number;
  status: 'open' | 'paid' | 'replaced';
  providerRef?: string;
  createdAt: string;
}

export const DUE_SHARDS = 8;
/** The renewal timer fires this many days before the due date (data-model §2.29). */
export const RENEWAL_LEAD_DAYS = 10;

const invoicePartition = (companyId: number) => `${company(companyId)}#INVOICE`;
export const invoiceKeys = (companyId: number, id: number) => ({
  pk: invoicePartition(companyId),
  sk: `INVOICE#${pad(id)}`,
});
const periodKeys = (companyId: number, dueDate: string) => ({
  pk: invoicePartition(companyId),
  sk: `PERIOD#${dueDate}`,
});
export const chargeKeys = (provider: string, chargeId: string) => ({
  pk: `PAYMENT#${provider}#${chargeId}`,
  sk: 'PAYMENT',
});
const eventKeys = (provider: string, eventId: string) => ({ pk: `PAYEVENT#${provider}#${eventId}`, sk: 'PAYEVENT' });

const chargeShard = (provider: string, chargeId: string) => fnv1a(`${provider}#${chargeId}`) % DUE_SHARDS;
const chargeIndexKeys = (c: Pick<Charge, 'provider' | 'chargeId' | 'createdAt'>) => ({
  gsi4pk: `DUE#CHARGE#${chargeShard(c.provider, c.chargeId)}`,
  gsi4sk: `${c.createdAt}#${c.provider}#${c.chargeId}`,
});

const addDays = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The renewal timer's index keys for a due date: its bucket is dueDate − 10 days, or `today` when that passed. */
export const renewalIndexKeys = (companyId: number, dueDate: string, today = new Date().toISOString().slice(0, 10)) => {
  const day = addDays(dueDate.slice(0, 10), -RENEWAL_LEAD_DAYS);
  return {
    gsi4pk: `DUE#RENEWAL#${day < today ? today : day}#${fnv1a(`${companyId}#${companyId}`) % DUE_SHARDS}`,
    gsi4sk: pad(companyId),
  };
};

const strip = (item: Record<string, unknown>): Record<string, unknown> => {
  const { pk: _pk, sk: _sk, gsi4pk: _g, gsi4sk: _h, ...rest } = item;
  return rest;
};
const toInvoice = (item: Record<string, unknown>): Invoice => strip(item) as unknown as Invoice;
const toCharge = (item: Record<string, unknown>): Charge => strip(item) as unknown as Charge;

export const invoiceNotFound = () => new NotFound('ERR_NO_INVOICE_FOUND', 'Invoice not found');
export const invoiceAlreadyPaid = () => new Conflict('ERR_INVOICE_ALREADY_PAID', 'Invoice already paid');

/** Arms (or moves) a company's renewal timer; the caller read `dueDate` from the company. */
export const armRenewal = async (companyId: number, dueDate: string, now = new Date()): Promise<void> => {
  const keys = renewalIndexKeys(companyId, dueDate, now.toISOString().slice(0, 10));
  await mapDynamoErrors(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: companyKeys(companyId),
        UpdateExpression: 'SET gsi4pk = :pk, gsi4sk = :sk',
        ConditionExpression: 'attribute_exists(pk) AND dueDate = :due',
        ExpressionAttributeValues: { ':pk': keys.gsi4pk, ':sk': keys.gsi4sk, ':due': dueDate },
      }),
    ),
  );
};

/** Company ids whose renewal timer is in a day bucket (all shards). */
export const dueRenewals = async (day: string): Promise<number[]> =>
  (
    await queryDueBucket({
      shards: DUE_SHARDS,
      partition: (s) => `DUE#RENEWAL#${day}#${s}`,
      projection: 'id',
    })
  ).map((i) => Number(i.id));

/**
 * Handles a company's renewal timer for the due date it was armed for: the period's invoice is created
 * (once: the period guard) and the timer removed, in one transaction. `null` when this period already had
 * its invoice (the timer is removed all the same).
 */
export const createPeriodInvoice = async (
  c: Company,
  input: Pick<Invoice, 'detail' | 'users' | 'connections' | 'queues' | 'value' | 'planId' | 'recurrence'>,
  /** Another period than the company's due date (tests, an owner's manual invoice): the timer is left alone. */
  period = c.dueDate,
): Promise<Invoice | null> => {
  const existing = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: periodKeys(c.id, period), ConsistentRead: true })),
  );
  const disarm = {
    Update: {
      Key: companyKeys(c.id),
      UpdateExpression: 'REMOVE gsi4pk, gsi4sk',
      ConditionExpression: 'dueDate = :due',
      ExpressionAttributeValues: { ':due': c.dueDate },
    },
  };
  const ownPeriod = period === c.dueDate;
  if (existing.Item) {
    if (ownPeriod) await transactWrite([disarm], () => new Conflict());
    return null;
  }
  const id = await nextId(null, 'invoice');
  const now = new Date().toISOString();
  const invoice: Invoice = {
    ...input,
    id,
    companyId: c.id,
    dueDate: period,
    status: 'open',
    createdAt: now,
    updatedAt: now,
  };
  await transactWrite(
    [
      {
        Put: {
          Item: { ...periodKeys(c.id, period), invoiceId: id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          Item: { ...invoiceKeys(c.id, id), type: 'INVOICE', ...invoice },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      ...(ownPeriod ? [disarm] : []),
    ],
    () => new Conflict(),
  );
  return invoice;
};

export const getInvoice = async (companyId: number, id: number): Promise<Invoice | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: invoiceKeys(companyId, id), ConsistentRead: true })),
  );
  return out.Item ? toInvoice(out.Item) : null;
};

/** One page of a company's invoices, newest first (one Query, O(page)). */
export const listInvoicePage = async (companyId: number, limit: number, cursor?: string): Promise<Page<Invoice>> => {
  const page = await queryPage({
    scope: `invoices:${companyId}`,
    partition: invoicePartition(companyId),
    sortPrefix: 'INVOICE#',
    limit,
    cursor,
    descending: true,
  });
  return { ...page, items: page.items.map(toInvoice) };
};

/** Every open invoice of a company (a company has a handful: one per unpaid period). */
export const listOpenInvoices = async (companyId: number): Promise<Invoice[]> => {
  const found: Invoice[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :inv)',
          FilterExpression: '#status = :open',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':pk': invoicePartition(companyId), ':inv': 'INVOICE#', ':open': 'open' },
          ConsistentRead: true,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    found.push(...(out.Items ?? []).map(toInvoice));
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return found;
};

/**
 * Attaches a new charge to an open invoice (POST /subscription): the invoice's price and counters as the
 * charge was made for, the charge's lookup item (open, polled by the reconcile job), and the invoice's
 * previous charge, if any, marked replaced — one transaction, conditioned on the invoice being unchanged.
 */
export const attachCharge = async (
  before: Invoice,
  pricing: Pick<Invoice, 'value' | 'users' | 'connections'> & { custom: boolean },
  payment: InvoicePayment,
): Promise<Invoice> => {
  const now = new Date().toISOString();
  const after: Invoice = { ...before, ...pricing, payment, updatedAt: now };
  const charge: Charge = {
    provider: payment.provider,
    chargeId: payment.chargeId,
    companyId: before.companyId,
    invoiceId: before.id,
    amount: payment.amount,
    status: 'open',
    ...(payment.providerRef ? { providerRef: payment.providerRef } : {}),
    createdAt: now,
  };
  await transactWrite(
    [
      {
        Put: {
          Item: { ...invoiceKeys(before.companyId, before.id), type: 'INVOICE', ...after },
          ConditionExpression: '#status = :open AND updatedAt = :seen',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':open': 'open', ':seen': before.updatedAt },
        },
      },
      { Put: { Item: { ...chargeKeys(charge.provider, charge.chargeId), ...chargeIndexKeys(charge), ...charge } } },
      ...(before.payment && before.payment.chargeId !== payment.chargeId
        ? [
            {
              Update: {
                Key: chargeKeys(before.payment.provider, before.payment.chargeId),
                UpdateExpression: 'SET #status = :replaced REMOVE gsi4pk, gsi4sk',
                ConditionExpression: 'attribute_exists(pk) AND #status = :open',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':replaced': 'replaced', ':open': 'open' },
              },
            },
          ]
        : []),
    ],
    (f) =>
      f.reasons?.[0] === 'ConditionalCheckFailed'
        ? new Conflict('ERR_INVOICE_CHANGED', 'Invoice changed meanwhile')
        : new Conflict(),
  );
  return after;
};

/**
 * A plan's new value on an open invoice and on its pending charge together (the provider's charge was
 * already revised to `value`): the invoice and the charge lookup in one transaction.
 */
export const repriceInvoice = async (
  before: Invoice,
  fields: Pick<Invoice, 'value' | 'planId' | 'detail' | 'users' | 'connections' | 'queues'>,
): Promise<Invoice> => {
  const now = new Date().toISOString();
  const value = fields.value;
  const after: Invoice = {
    ...before,
    ...fields,
    ...(before.payment ? { payment: { ...before.payment, amount: value } } : {}),
    updatedAt: now,
  };
  await transactWrite(
    [
      {
        Put: {
          Item: { ...invoiceKeys(before.companyId, before.id), type: 'INVOICE', ...after },
          ConditionExpression: '#status = :open AND updatedAt = :seen',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':open': 'open', ':seen': before.updatedAt },
        },
      },
      ...(before.payment
        ? [
            {
              Update: {
                Key: chargeKeys(before.payment.provider, before.payment.chargeId),
                UpdateExpression: 'SET amount = :v',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':v': value },
              },
            },
          ]
        : []),
    ],
    () => new Conflict(),
  );
  return after;
};

export const getCharge = async (provider: string, chargeId: string): Promise<Charge | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: chargeKeys(provider, chargeId), ConsistentRead: true })),
  );
  return out.Item ? toCharge(out.Item) : null;
};

/** Every open charge (the sparse `DUE#CHARGE#<s>` partitions): what the reconcile job polls. */
export const listOpenCharges = async (): Promise<Charge[]> =>
  (
    await queryDueBucket({
      shards: DUE_SHARDS,
      partition: (s) => `DUE#CHARGE#${s}`,
      projection: 'provider, chargeId, companyId, invoiceId, amount, providerRef, createdAt',
    })
  ).map((item) => ({ ...(item as unknown as Charge), status: 'open' as const }));

/**
 * Claims a provider's webhook delivery by its event id (the same delivery 100 times is handled once).
 * `false` when it was already claimed.
 */
export const claimPaymentEvent = async (provider: string, eventId: string, body: unknown): Promise<boolean> => {
  try {
    await mapDynamoErrors(() =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...eventKeys(provider, eventId),
            type: 'PAYEVENT',
            receivedAt: new Date().toISOString(),
            body: JSON.stringify(body).slice(0, 20_000),
            // Kept 90 days (data-model §1.11): long past any provider's retries.
            expiresAt: Math.floor(Date.now() / 1000) + 90 * 86_400,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
};

/** Releases a claimed delivery whose handling failed, so the provider's retry is handled. */
export const releasePaymentEvent = async (provider: string, eventId: string): Promise<void> => {
  await mapDynamoErrors(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: eventKeys(provider, eventId),
        UpdateExpression: 'SET expiresAt = :now',
        ExpressionAttributeValues: { ':now': 0 },
      }),
    ),
  ).catch(() => undefined);
};

/**
 * Paid (decisions D153): the invoice paid, the company's due date moved from `company.dueDate` to
 * `newDueDate` with its renewal timer re-armed, and the charge closed — one transaction, conditioned on the
 * invoice being open and the due date unchanged, so a replayed webhook or a reconcile racing it changes
 * nothing. `false` when the invoice was already paid.
 */
export const markInvoicePaid = async (
  invoice: Invoice,
  c: Company,
  newDueDate: string,
  charge: Pick<Charge, 'provider' | 'chargeId'>,
): Promise<boolean> => {
  const now = new Date();
  const renewal = renewalIndexKeys(c.id, newDueDate, now.toISOString().slice(0, 10));
  try {
    await transactWrite(
      [
        {
          Update: {
            Key: invoiceKeys(invoice.companyId, invoice.id),
            UpdateExpression: 'SET #status = :paid, paidAt = :now, updatedAt = :now, paidWith = :with',
            ConditionExpression: '#status = :open',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':paid': 'paid',
              ':open': 'open',
              ':now': now.toISOString(),
              ':with': `${charge.provider}#${charge.chargeId}`,
            },
          },
        },
        {
          Update: {
            Key: companyKeys(c.id),
            UpdateExpression: 'SET dueDate = :new, gsi4pk = :rpk, gsi4sk = :rsk',
            ConditionExpression: 'dueDate = :seen',
            ExpressionAttributeValues: {
              ':new': newDueDate,
              ':seen': c.dueDate,
              ':rpk': renewal.gsi4pk,
              ':rsk': renewal.gsi4sk,
            },
          },
        },
        {
          Update: {
            Key: chargeKeys(charge.provider, charge.chargeId),
            UpdateExpression: 'SET #status = :paid REMOVE gsi4pk, gsi4sk',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':paid': 'paid' },
          },
        },
      ],
      (f) =>
        f.reasons?.[0] === 'ConditionalCheckFailed'
          ? invoiceAlreadyPaid()
          : new Conflict('ERR_CONFLICT', 'The company changed meanwhile'),
    );
    return true;
  } catch (err) {
    if (err instanceof Conflict && err.code === 'ERR_INVOICE_ALREADY_PAID') return false;
    throw err;
  }
};

/** Closes a charge the provider says will never be paid (removed, expired) or that was paid elsewhere. */
export const closeCharge = async (
  charge: Pick<Charge, 'provider' | 'chargeId'>,
  status: Charge['status'],
): Promise<void> => {
  await mapDynamoErrors(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: chargeKeys(charge.provider, charge.chargeId),
        UpdateExpression: 'SET #status = :s REMOVE gsi4pk, gsi4sk',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':s': status },
      }),
    ),
  );
};
