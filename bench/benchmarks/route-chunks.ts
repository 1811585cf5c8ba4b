import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import type { Benchmark, BenchContext } from '../benchmark';
import { kb, markdownTable } from '../stats';

const run = promisify(execFile);

/** Issue 3, item 9: the login page's JavaScript is a fraction of the whole app. */
const MAX_LOGIN_SHARE = 0.6;

/** Vite's build manifest: one entry per source module that became a chunk. */
type Manifest = Record<
  string,
  { file: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[]; dynamicImports?: string[] }
>;

/** What a visitor of each route downloads: the entry plus the route's lazy modules, with static imports. */
const ROUTES: { route: string; modules: string[] }[] = [
  { route: '/login', modules: ['src/pages/auth/login/login-page.tsx'] },
  { route: '/signup', modules: ['src/pages/auth/signup/signup-page.tsx'] },
  {
    route: '/tickets (shell)',
    modules: ['src/components/shell/app-shell.tsx', 'src/pages/coming-soon/coming-soon-page.tsx'],
  },
  {
    route: '/users (shell)',
    modules: ['src/components/shell/app-shell.tsx', 'src/pages/users/users-page.tsx'],
  },
];

/** Modules of private pages that a public page must never download. */
const PRIVATE_MODULES = [
  'src/components/shell/app-shell.tsx',
  'src/pages/users/users-page.tsx',
  'src/pages/todolist/todo-list-page.tsx',
  'src/pages/coming-soon/coming-soon-page.tsx',
];

const closure = (manifest: Manifest, roots: string[]): Set<string> => {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the build manifest has no chunk for ${key}: did the route table change?`);
    seen.add(key);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  roots.forEach(visit);
  return seen;
};

/**
 * Builds the web app as `npm run build:web` does (same config), reads Vite's manifest and sums the
 * gzipped JavaScript each route needs before it can render: the entry chunk and its static imports, plus
 * the route's lazy modules and theirs. CSS is left out (Cloudscape's styles are one shared file).
 */
export const routeChunks: Benchmark = {
  name: 'route-chunks',
  description: 'Gzipped JavaScript each route downloads before it renders, against the whole app.',
  goal: `/login needs at most ${MAX_LOGIN_SHARE * 100}% of the app's JavaScript, and none of the private pages' code`,
  needsCloud: false,
  run: async (ctx: BenchContext) => {
    const outDir = join(ctx.workDir, 'dist');
    ctx.log('building the web app...');
    await run(
      join(ctx.repoRoot, 'node_modules/.bin/vite'),
      ['build', '--config', 'frontend/vite.config.ts', '--outDir', outDir, '--manifest', '--emptyOutDir'],
      { cwd: ctx.repoRoot, maxBuffer: 64 * 1024 * 1024 },
    );
    const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
    const gz = new Map<string, number>();
    const sizeOf = (key: string): number => {
      const file = manifest[key]!.file;
      if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(join(outDir, file))).byteLength);
      return gz.get(file)!;
    };
    const jsKeys = Object.keys(manifest).filter((k) => manifest[k]!.file.endsWith('.js'));
    const total = jsKeys.reduce((sum, k) => sum + sizeOf(k), 0);
    const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
    const entrySize = [...closure(manifest, [entry])].reduce((sum, k) => sum + sizeOf(k), 0);

    const rows = ROUTES.map(({ route, modules }) => {
      const needed = closure(manifest, [entry, ...modules]);
      const bytes = [...needed].reduce((sum, k) => sum + sizeOf(k), 0);
      return { route, bytes, needed };
    });
    const login = rows.find((r) => r.route === '/login')!;
    const leaked = PRIVATE_MODULES.filter((m) => login.needed.has(m));
    const share = login.bytes / total;

    const table = markdownTable(
      ['route', 'JS needed (KB gz)', 'share of all JS'],
      [
        ['entry only', kb(entrySize), `${Math.round((entrySize / total) * 100)}%`],
        ...rows.map((r) => [r.route, kb(r.bytes), `${Math.round((r.bytes / total) * 100)}%`]),
        ['all JavaScript', kb(total), '100%'],
      ],
      ['l', 'r', 'r'],
    );
    return {
      table,
      goalMet: share <= MAX_LOGIN_SHARE && leaked.length === 0,
      summary:
        `/login needs ${kb(login.bytes)} KB of ${kb(total)} KB gzipped JavaScript (${Math.round(share * 100)}%)` +
        (leaked.length === 0 ? ', none of it private pages.' : `; it also loads ${leaked.join(', ')}.`),
      notes:
        `${jsKeys.length} JavaScript chunks. Most of what /login needs is React, the router, i18next with the ` +
        'Portuguese texts and the Cloudscape components every page shares; the app shell, the private pages ' +
        'and the other languages load only when used. The share falls as later issues add pages.',
    };
  },
};
