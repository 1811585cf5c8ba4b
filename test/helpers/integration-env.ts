import { inject } from 'vitest';
import { resetConfigForTests } from '../../functions/config';

/**
 * Runs in every integration worker before a test file loads: the handlers and repositories the tests
 * import read the local cloud's configuration (global-setup.ts), never the developer's shell.
 */
Object.assign(process.env, inject('localCloudEnv'));
resetConfigForTests();
