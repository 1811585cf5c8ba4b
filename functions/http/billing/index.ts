import * as z from 'zod';
import { createPlanBody, subscriptionBody, updatePlanBody } from '../../contracts/billing';
import {
  handlePaymentWebhook,
  listInvoices,
  listOfferedProviders,
  subscribe,
} from '../../core/billing/billing-service';
import {
  createPlatformPlan,
  deletePlatformPlan,
  listAllPlans,
  updatePlatformPlan,
} from '../../core/plans/plan-service';
import { pagingQuery } from '../../core/paging';
import { createAreaHandler, defineRoute, respond, type AreaHandlers } from '../stack';

/**
 * Plans (super), invoices, checkout and payment webhooks (administration §7 "Companies and plans",
 * "Invoices and checkout"; decisions D151–D153). Bodies: functions/contracts/billing.ts.
 */
const idParam = z.object({ id: z.coerce.number().int().positive() });

const webhookQuery = z.object({ hmac: z.string().max(200).optional(), ignorar: z.string().max(10).optional() });

const rawBody = z.custom<Buffer | undefined>((v) => v === undefined || Buffer.isBuffer(v));

const cardWebhook = (provider: 'stripe' | 'asaas' | 'mercadopago') =>
  defineRoute({
    bodyType: 'raw',
    maxBodyBytes: 256 * 1024,
    query: z.record(z.string().max(100), z.string().max(300)),
    body: rawBody,
    handle: async ({ body, query, event }) =>
      handlePaymentWebhook(provider, {
        headers: event.headers ?? {},
        query,
        rawBody: body ? body.toString('utf8') : '',
      }),
  });

export const handlers: AreaHandlers = {
  'list-all-plans': defineRoute({ handle: async () => listAllPlans() }),
  'create-plan': defineRoute({
    body: createPlanBody,
    handle: async ({ body }) => respond(201, await createPlatformPlan(body)),
  }),
  'update-plan': defineRoute({
    params: idParam,
    body: updatePlanBody,
    handle: async ({ params, body }) => updatePlatformPlan(params.id, body),
  }),
  'delete-plan': defineRoute({
    params: idParam,
    handle: async ({ params }) => {
      await deletePlatformPlan(params.id);
      return respond(200, { message: 'Plan deleted' });
    },
  }),
  'list-invoices': defineRoute({
    query: z.object({ searchParam: z.string().max(100).optional(), ...pagingQuery }),
    handle: async ({ auth, query }) => listInvoices(auth!, query),
  }),
  subscribe: defineRoute({
    body: subscriptionBody,
    handle: async ({ auth, body }) => subscribe(auth!, body),
  }),
  // Efí posts paid PIX to the registered URL + `/pix`; ours ends in `&ignorar=` (Efí's documented way to keep
  // the suffix in an ignored parameter) and carries our hmac (D153).
  'receive-efi-webhook': defineRoute({
    bodyType: 'raw',
    query: webhookQuery,
    body: z.custom<Buffer | undefined>((v) => v === undefined || Buffer.isBuffer(v)),
    handle: async ({ body, query, event }) =>
      handlePaymentWebhook('efi', {
        headers: event.headers ?? {},
        query,
        rawBody: body ? body.toString('utf8') : '',
      }),
  }),
  'list-payment-providers': defineRoute({ handle: async () => listOfferedProviders() }),
  // Card providers (decisions D167): each adapter checks its own signature or token on the exact bytes.
  'receive-stripe-webhook': cardWebhook('stripe'),
  'receive-asaas-webhook': cardWebhook('asaas'),
  // Mercado Pago names the payment in the query string too (`?data.id=…&type=payment`) and signs that id.
  'receive-mercadopago-webhook': cardWebhook('mercadopago'),
};

export const handler = createAreaHandler('billing', handlers);
