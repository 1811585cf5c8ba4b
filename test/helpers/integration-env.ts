import { inject } from 'vitest';
import { setNotifier } from '../../functions/core/notifier';
import { realtimeNotifier } from '../../functions/realtime/publisher';
import { resetConfigForTests } from '../../functions/shared/config';

/**
 * Runs in every integration worker before a test file loads: the handlers and repositories the tests
 * import read the local cloud's configuration (global-setup.ts), never the developer's shell.
 */
Object.assign(process.env, inject('localCloudEnv'));
resetConfigForTests();
// Core publishes through its notifier port; tests that call services directly get the real publisher.
setNotifier(realtimeNotifier);
