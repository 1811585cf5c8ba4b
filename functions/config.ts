import * as z from 'zod';

/**
 * The one place that reads process.env for every entry point (HTTP areas, WebSocket handlers, jobs,
 * the WhatsApp worker). Parsed once, at first use during cold start; a missing or malformed variable
 * throws there with the variable's name, never later inside a request.
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
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    APP_VERSION: z.string().default('7.0.0'),
  })
  .refine((c) => c.APP_SECRET !== undefined || c.APP_SECRET_ARN !== undefined, {
    message: 'one of APP_SECRET or APP_SECRET_ARN is required',
    path: ['APP_SECRET'],
  });

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
