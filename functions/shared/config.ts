import * as z from 'zod';

/**
 * The one place that reads process.env for every entry point (HTTP areas, WebSocket handlers, jobs,
 * the WhatsApp worker). Every entry point parses it at cold start (functions/realtime/entry-point.ts, called
 * when the module loads); a missing or malformed variable throws there with the variable's name, never later
 * inside a request. Tests and the local cloud set the environment before they load an entry point.
 *
 * Bindings: the CDK Lambda construct (infra/constructs/zap-function.ts) sets a variable and grants the
 * matching IAM permission in one call, so an env var without its grant cannot happen.
 */
const optionalUrl = z.string().url().optional();

const configSchema = z
  .object({
    STAGE: z.enum(['local', 'aws', 'test']).default('aws'),
    AWS_REGION: z.string().min(1).default('us-east-1'),
    TABLE_NAME: z.string().min(1),
    /** Local cloud only: DynamoDB Local / fauxqs endpoints. Unset in AWS. */
    DYNAMODB_ENDPOINT: optionalUrl,
    SQS_ENDPOINT: optionalUrl,
    S3_ENDPOINT: optionalUrl,
    MEDIA_BUCKET: z.string().min(1).optional(),
    /** Exported spreadsheets (decisions D127): read only through presigned GETs. */
    EXPORTS_BUCKET: z.string().min(1).optional(),
    /** Base URL browsers use for media (`/media` behind CloudFront or the local gateway). */
    MEDIA_BASE_URL: z.string().min(1).default('/media'),
    /** https URL of the WebSocket API's @connections endpoint (stage included). */
    WS_MANAGEMENT_ENDPOINT: optionalUrl,
    /** JSON map of logical queue name -> queue URL, e.g. {"inbound":"https://..."} */
    QUEUE_URLS: z
      .string()
      .default('{}')
      .transform((s, ctx) => {
        try {
          return z.record(z.string(), z.string().url()).parse(JSON.parse(s));
        } catch {
          ctx.addIssue({ code: 'custom', message: 'QUEUE_URLS must be a JSON object of queue URLs' });
          return z.NEVER;
        }
      }),
    /** Signing secret for tokens and cursors: given directly (local) or as a Secrets Manager ARN (AWS). */
    APP_SECRET: z.string().min(32).optional(),
    APP_SECRET_ARN: z.string().startsWith('arn:').optional(),
    /**
     * Sender address of the product's e-mails (password-reset codes). Set in AWS by the CDK binding with
     * the ses:SendEmail grant for that identity; required there when an e-mail is sent through SES.
     */
    EMAIL_FROM: z.string().email().optional(),
    /**
     * Local cloud and tests: write each e-mail as a JSON file into this folder instead of sending it
     * (functions/core/email/). Unset in AWS, where e-mail goes through SES.
     */
    EMAIL_OUTBOX_DIR: z.string().min(1).optional(),
    /**
     * Which WhatsApp session implementation the worker runs (functions/channels/whatsapp/): `baileys`
     * reaches WhatsApp; `simulator` never leaves the process and is "scanned" through
     * POST /simulator/{whatsappId}/scan. Default: baileys in AWS, simulator locally and in tests.
     */
    WHATSAPP_DRIVER: z.enum(['simulator', 'baileys']).optional(),
    /** WhatsApp worker: how often it renews its heartbeat, checks its sessions and sweeps dead workers. */
    WORKER_HEARTBEAT_MS: z.coerce.number().int().min(50).default(5_000),
    /**
     * WhatsApp worker: how long a heartbeat keeps the worker's leases; past it, another worker takes its
     * connections over. Must leave room for at least two missed heartbeats.
     */
    WORKER_LEASE_MS: z.coerce.number().int().min(200).default(20_000),
    /**
     * Meta (Messenger, Instagram, WhatsApp Cloud API; decisions D40). The Graph API's base URL with its
     * version; tests point it at a local fake (test/helpers/fake-graph.ts).
     */
    GRAPH_API_URL: z.string().url().default('https://graph.facebook.com/v21.0'),
    META_APP_ID: z.string().min(1).optional(),
    /**
     * The Meta app's secret (Meta issues it, so it cannot be derived from APP_SECRET): webhook signatures
     * (`X-Hub-Signature-256`) and long-lived token exchange. Given directly (local) or as a Secrets
     * Manager ARN (AWS). Without it the Meta routes answer 503 ERR_META_NOT_CONFIGURED.
     */
    META_APP_SECRET: z.string().min(1).optional(),
    META_APP_SECRET_ARN: z.string().startsWith('arn:').optional(),
    /** What Meta's webhook verification must echo (`hub.verify_token`); chosen by us in the app's dashboard. */
    META_VERIFY_TOKEN: z.string().min(8).optional(),
    /**
     * OpenAI's API base (audio transcription with the company's key, decisions D53); tests point it at a
     * local fake (test/helpers/fake-openai.ts).
     */
    OPENAI_API_URL: z.string().url().default('https://api.openai.com/v1'),
    /**
     * Efí's PIX API (decisions D153); the local cloud and the tests point it at
     * infra/local/fake-payment-provider.ts.
     */
    EFI_API_URL: z.string().url().default('https://pix.api.efipay.com.br'),
    /**
     * The card-payment providers' REST bases (decisions D167); the local cloud and the tests point them at
     * infra/local/fake-payment-provider.ts.
     */
    STRIPE_API_URL: z.string().url().default('https://api.stripe.com'),
    ASAAS_API_URL: z.string().url().default('https://api.asaas.com'),
    MERCADOPAGO_API_URL: z.string().url().default('https://api.mercadopago.com'),
    /** Our API's public base (`https://<AppUrl>/api`) where payment providers deliver webhooks. */
    PAYMENT_WEBHOOK_BASE_URL: optionalUrl,
    /** Where a card provider's page sends the payer back (the app's /financeiro; CDK context `appUrl`). */
    PAYMENT_RETURN_URL: optionalUrl,
    /**
     * Dialogflow ES's REST base and Google's OAuth2 token endpoint (queue integrations, decisions D162);
     * tests and the local cloud point them at a local fake (test/helpers/fake-integrations.ts).
     */
    DIALOGFLOW_API_URL: z.string().url().default('https://dialogflow.googleapis.com/v2'),
    GOOGLE_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
    /** Queue integrations: a burst of customer messages within this many seconds makes one call (D162). */
    INTEGRATION_DEBOUNCE_SECONDS: z.coerce.number().int().min(0).max(900).default(3),
    /** Queue integrations and the AI assistant: one call's timeout (each of its retries gets as long). */
    INTEGRATION_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    APP_VERSION: z.string().default('7.0.0'),
  })
  .refine((c) => c.APP_SECRET !== undefined || c.APP_SECRET_ARN !== undefined, {
    message: 'one of APP_SECRET or APP_SECRET_ARN is required',
    path: ['APP_SECRET'],
  })
  .refine((c) => c.WORKER_LEASE_MS >= 3 * c.WORKER_HEARTBEAT_MS, {
    message: 'must be at least three heartbeats (WORKER_HEARTBEAT_MS)',
    path: ['WORKER_LEASE_MS'],
  })
  .transform((c) => ({ ...c, WHATSAPP_DRIVER: c.WHATSAPP_DRIVER ?? (c.STAGE === 'aws' ? 'baileys' : 'simulator') }));

export type Config = z.infer<typeof configSchema>;

let cached: Config | undefined;

export const parseConfig = (env: Record<string, string | undefined>): Config => {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.') || 'env'}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return result.data;
};

export const config = (): Config => {
  cached ??= parseConfig(process.env);
  return cached;
};

/** Tests and the local cloud change the environment before handlers load; this forgets the parsed copy. */
export const resetConfigForTests = (): void => {
  cached = undefined;
};
