import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '@functions/routes';

describe('path aliases', () => {
  it('resolve in vitest (this import) and in esbuild with the same tsconfig the Lambda bundles use', async () => {
    expect(ROUTES.length).toBeGreaterThan(0);
    const out = await build({
      stdin: {
        contents: "import { ROUTES } from '@functions/routes'; export const count = ROUTES.length;",
        resolveDir: process.cwd(),
        loader: 'ts',
      },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      tsconfig: 'tsconfig.json',
      logLevel: 'silent',
    });
    expect(out.errors).toEqual([]);
    expect(out.outputFiles[0]!.text).toContain('path: "/version"');
  });
});
