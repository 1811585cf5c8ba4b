import type * as logs from 'aws-cdk-lib/aws-logs';

/** Settings every ZapFunction of the app shares, decided once in buildApp (build-app.ts). */
export interface FunctionSettings {
  logRetention: logs.RetentionDays;
  tracing: boolean;
  /** Plain variables every function (and the WhatsApp worker) reads: LOG_LEVEL, APP_VERSION, WHATSAPP_DRIVER. */
  environment: Record<string, string>;
}
