import { setNotifier } from '../core/notifier';
import { config } from '../shared/config';
import { realtimeNotifier } from './publisher';

/**
 * What every entry point does once, at cold start (module load), before it handles anything: parse the
 * configuration — a missing or malformed variable fails the cold start with its name (STYLE 3), never a
 * request later — and plug the realtime publisher into core's notifier port (functions/core/notifier.ts).
 * Called by the HTTP areas' handler builder, the SQS consumer and tick wrappers, and the WhatsApp worker.
 */
export const startEntryPoint = (): void => {
  config();
  setNotifier(realtimeNotifier);
};
