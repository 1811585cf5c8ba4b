import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const r = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** Path aliases shared by every project (tsconfig.json paths mirror these). */
const alias = {
  '@functions': r('./functions'),
  '@infra': r('./infra'),
  '@test': r('./test'),
};

export default defineConfig({
  resolve: { alias },
  test: {
    reporters: ['default'],
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['test/helpers/unit-env.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/helpers/global-setup.ts'],
          setupFiles: ['test/helpers/integration-env.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One local cloud for the whole run; files run in parallel against it (fresh company each).
          fileParallelism: true,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.test.ts'],
          environment: 'node',
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One browser per file; files share the one local cloud.
          fileParallelism: false,
        },
      },
      {
        resolve: { alias: { ...alias, '@': r('./frontend/src'), '@contracts': r('./functions/contracts') } },
        test: {
          name: 'frontend',
          include: ['frontend/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['frontend/src/test-setup.ts'],
          css: false,
        },
      },
    ],
  },
});
