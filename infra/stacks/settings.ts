import type * as logs from 'aws-cdk-lib/aws-logs';

/** Settings every ZapFunction of the app shares, decided once in buildApp (build-app.ts). */
export interface FunctionSettings {
  logRetention: logs.RetentionDays;
  tracing: boolean;
  /** Plain variables every function reads: LOG_LEVEL, APP_VERSION. */
  environment: Record<string, string>;
}
