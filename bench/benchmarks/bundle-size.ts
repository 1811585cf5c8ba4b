import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build, version as esbuildVersion, type BuildOptions, type Metafile } from 'esbuild';
import { areaEntry } from '../../functions/http/areas';
import { CONSUMERS, TICKS } from '../../functions/jobs/registry';
import { WS_ENTRIES } from '../../functions/realtime/routes';
import { AREAS } from '../../functions/routes';
import { readBaseline, writeBaseline, type LambdaBaseline } from '../baseline';
import type { Benchmark, BenchContext, QuickResult } from '../benchmark';
import { kb, markdownTable, median, ms } from '../stats';

const run = promisify(execFile);

/** Issue 20: every Lambda imported in a fresh process in under 100 ms (median), its bundle sized sensibly. */
const MAX_BUNDLE_BYTES = 1024 * 1024;
/**
 * The two Lambdas that read spreadsheets (the contacts area's preview and the contact-import job, D104) carry
 * exceljs and a SheetJS build: ~2.5 MB. They get their own ceiling until the readers move out of the
 * request path (the preview read by the job); every other Lambda keeps 1 MB (decisions D116). The export
 * job writes spreadsheets with exceljs and shares that ceiling (D127); the exports area Lambda does not.
 */
const SPREADSHEET_BUNDLE_BYTES = 3 * 1024 * 1024;
const SPREADSHEET_ENTRIES = new Set(['http:contacts', 'consumer:contact-import', 'consumer:export']);
const bundleCeiling = (label: string): number =>
  SPREADSHEET_ENTRIES.has(label) ? SPREADSHEET_BUNDLE_BYTES : MAX_BUNDLE_BYTES;
const MAX_IMPORT_MS = 100;
const IMPORT_RUNS = 5;
const VARIANT_IMPORT_RUNS = 3;
/** The quick CI check (`npm run bench -- --quick`): fewer processes, and only a large regression fails. */
const QUICK_IMPORT_RUNS = 3;
export const QUICK_IMPORT_FACTOR = 2;

/**
 * What a Lambda leaves to the nodejs22.x runtime, which ships AWS SDK v3: aws-cdk-lib's NodejsFunction
 * default for Node 18+ is `@aws-sdk/*`, plus `@smithy/*` under `@aws-cdk/aws-lambda-nodejs:
 * sdkV3ExcludeSmithyPackages` (on in cdk.json). Only SDK packages import @smithy.
 */
export const RUNTIME_PROVIDED_MODULES = ['@aws-sdk/*', '@smithy/*'];

/** The ESM `require` banner of infra/constructs/zap-function.ts. */
const CREATE_REQUIRE_BANNER =
  "import { createRequire as __zapCreateRequire } from 'node:module'; const require = __zapCreateRequire(import.meta.url);";

/**
 * esbuild options that reproduce the Lambda construct's bundle (infra/constructs/zap-function.ts), plus a
 * metafile, so the benchmark can say what is inside and try the other SDK choice. Every run checks that
 * one of the two variants is byte-identical to the bundle the construct itself produced; if the
 * construct changes, the benchmark fails instead of measuring something that does not deploy.
 */
export const analysisBuildOptions = (
  repoRoot: string,
  entry: string,
  outfile: string,
  external: string[],
): BuildOptions => ({
  absWorkingDir: repoRoot,
  entryPoints: [resolve(repoRoot, entry)],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  minify: true,
  treeShaking: true,
  mainFields: ['module', 'main'],
  banner: { js: CREATE_REQUIRE_BANNER },
  external,
  tsconfig: resolve(repoRoot, 'tsconfig.json'),
  metafile: true,
  logLevel: 'silent',
});

export interface LambdaEntry {
  /** e.g. `http:tags`, `ws:connect`, `consumer:inbound`, `tick:auto-close`. */
  label: string;
  /** Repository-relative source file. */
  entry: string;
}

/** Every Lambda the CDK app deploys, read from the same tables the stacks read. */
export const lambdaEntries = (): LambdaEntry[] => {
  const all: LambdaEntry[] = [
    ...AREAS.map((area) => ({ label: `http:${area}`, entry: areaEntry(area) })),
    ...Object.entries(WS_ENTRIES).map(([name, entry]) => ({ label: `ws:${name}`, entry })),
    ...CONSUMERS.map((c) => ({ label: `consumer:${c.queue}`, entry: c.entry })),
    ...TICKS.map((t) => ({ label: `tick:${t.name}`, entry: t.entry })),
  ];
  // Two definitions pointing at one module are two functions with one bundle: measure it once.
  const byEntry = new Map<string, LambdaEntry>();
  for (const e of all) {
    const seen = byEntry.get(e.entry);
    byEntry.set(e.entry, seen ? { ...seen, label: `${seen.label}, ${e.label}` } : e);
  }
  return [...byEntry.values()];
};

interface DeployBundle {
  /** The staged asset: `index.mjs` (+ `index.mjs.map`). */
  dir: string;
  /** The function's environment variables from the synthesized template (NODE_OPTIONS, STAGE, ...). */
  environment: Record<string, string>;
}

/**
 * Bundles every entry with the project's own Lambda construct, in a throwaway CDK app whose assembly goes
 * to `outdir`: the exact files `cdk deploy` would upload, and the environment the function starts with.
 */
const bundleWithConstruct = async (entries: LambdaEntry[], outdir: string): Promise<Map<string, DeployBundle>> => {
  const { App, AssetStaging, Stack } = await import('aws-cdk-lib');
  const { CfnFunction } = await import('aws-cdk-lib/aws-lambda');
  const { ZapFunction } = await import('../../infra/constructs/zap-function');
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': ['**'] } });
  const stack = new Stack(app, 'BenchBundleSize');
  const staged = entries.map((e, i) => {
    const fn = new ZapFunction(stack, `Lambda${i}`, { entry: e.entry });
    const staging = fn.node.findAll().find((c): c is InstanceType<typeof AssetStaging> => c instanceof AssetStaging);
    const cfn = fn.fn.node.defaultChild;
    if (!staging || !(cfn instanceof CfnFunction)) throw new Error(`no bundled asset for ${e.entry}`);
    return { entry: e.entry, dir: staging.absoluteStagedPath, logicalId: stack.getLogicalId(cfn) };
  });
  const template = app.synth().getStackByName(stack.stackName).template as {
    Resources: Record<string, { Properties?: { Environment?: { Variables?: Record<string, unknown> } } }>;
  };
  return new Map(
    staged.map((s) => {
      const variables = template.Resources[s.logicalId]?.Properties?.Environment?.Variables ?? {};
      const environment = Object.fromEntries(
        Object.entries(variables).filter((kv): kv is [string, string] => typeof kv[1] === 'string'),
      );
      return [s.entry, { dir: s.dir, environment }];
    }),
  );
};

/** The package a bundled input file belongs to, or `functions/` for our own code. */
const packageOf = (inputPath: string): string => {
  const at = inputPath.lastIndexOf('node_modules/');
  if (at === -1) return 'functions/';
  const parts = inputPath.slice(at + 'node_modules/'.length).split('/');
  return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
};

const outputOf = (metafile: Metafile, outfile: string, repoRoot: string) => {
  const output = metafile.outputs[relative(repoRoot, outfile)];
  if (!output) throw new Error(`esbuild metafile has no output ${outfile}`);
  return output;
};

/** Bytes in the output per package, largest first. */
const packageBytes = (metafile: Metafile, outfile: string, repoRoot: string): [string, number][] => {
  const bytes = new Map<string, number>();
  for (const [path, input] of Object.entries(outputOf(metafile, outfile, repoRoot).inputs)) {
    bytes.set(packageOf(path), (bytes.get(packageOf(path)) ?? 0) + input.bytesInOutput);
  }
  return [...bytes.entries()].sort((a, b) => b[1] - a[1]);
};

/** Packages the bundle imports at load time but does not contain (the runtime's SDK), not `node:` built-ins. */
const staticExternals = (metafile: Metafile, outfile: string, repoRoot: string): string[] => {
  const paths = outputOf(metafile, outfile, repoRoot)
    .imports.filter((i) => i.external && i.kind === 'import-statement' && !i.path.startsWith('node:'))
    .map((i) => i.path);
  return [...new Set(paths)].sort();
};

/** What Lambda gives every function, so module-scope code finds its configuration as it would in AWS. */
const LAMBDA_LIKE_ENV = {
  PATH: process.env.PATH ?? '',
  AWS_REGION: 'us-east-1',
  TABLE_NAME: 'bench-table',
  APP_SECRET: 'bench-secret-0123456789abcdef0123456789abcdef',
  LOG_LEVEL: 'silent',
};

/**
 * Milliseconds to import `specifiers` (in order) in a fresh Node process started in `cwd`: median of
 * IMPORT_RUNS processes. Bare specifiers resolve from `cwd`, like a bundle in the repository would.
 */
const importMs = async (
  specifiers: string[],
  cwd: string,
  env: Record<string, string>,
  runs = IMPORT_RUNS,
): Promise<number> => {
  const imports = specifiers.map((s) => `await import(${JSON.stringify(s)});`).join(' ');
  const script = `const t = performance.now(); ${imports} console.log(performance.now() - t);`;
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd,
      env: { ...LAMBDA_LIKE_ENV, ...env },
      timeout: 30_000,
    });
    const value = Number(stdout.trim().split('\n').pop());
    if (!Number.isFinite(value))
      throw new Error(`importing ${specifiers.join(', ')} printed ${JSON.stringify(stdout)}`);
    samples.push(value);
  }
  return median(samples);
};

type SdkChoice = 'bundled' | 'external';
const EXTERNALS: Record<SdkChoice, string[]> = { bundled: [], external: RUNTIME_PROVIDED_MODULES };
const CHOICE_SHORT: Record<SdkChoice, string> = { bundled: 'SDK bundled', external: 'SDK external' };
const CHOICE_TEXT: Record<SdkChoice, string> = {
  bundled: 'SDK bundled',
  external: 'SDK left to the runtime (`@aws-sdk/*`, `@smithy/*` external)',
};

interface AnalysisBuild {
  code: Buffer;
  outfile: string;
  packages: [string, number][];
  externals: string[];
}

const analysisBuild = async (ctx: BenchContext, e: LambdaEntry, choice: SdkChoice): Promise<AnalysisBuild> => {
  const outfile = join(ctx.workDir, `sdk-${choice}`, e.entry.replace(/\.ts$/, '').replace(/[/\\]/g, '_'), 'index.mjs');
  mkdirSync(join(outfile, '..'), { recursive: true });
  const { metafile } = await build(analysisBuildOptions(ctx.repoRoot, e.entry, outfile, EXTERNALS[choice]));
  return {
    code: readFileSync(outfile),
    outfile,
    packages: packageBytes(metafile!, outfile, ctx.repoRoot),
    externals: staticExternals(metafile!, outfile, ctx.repoRoot),
  };
};

/** The construct's bundle without the trailing `//# sourceMappingURL=…` line esbuild adds for source maps. */
const withoutSourceMapComment = (code: Buffer): Buffer =>
  Buffer.from(code.toString('utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'), 'utf8');

const fileKb = (path: string): string => {
  try {
    return kb(statSync(path).size);
  } catch {
    return '–';
  }
};

const top = (packages: [string, number][], n: number): string =>
  packages
    .slice(0, n)
    .map(([pkg, bytes]) => `${pkg} ${kb(bytes)}`)
    .join(', ');

/**
 * The quick CI check: every Lambda bundled as the construct bundles it (the analysis build, which the full
 * run proves byte-identical), its size against the budget and 1.5× its recorded size, its import (median of
 * QUICK_IMPORT_RUNS) against QUICK_IMPORT_FACTOR× its recorded median. Only a large regression fails.
 */
const quickCheck = async (ctx: BenchContext): Promise<QuickResult> => {
  const recorded = readBaseline(ctx.repoRoot)['bundle-size'] ?? {};
  const lines: string[] = [];
  let ok = true;
  for (const e of lambdaEntries()) {
    const built = await analysisBuild(ctx, e, 'bundled');
    const took = await importMs([pathToFileURL(built.outfile).href], ctx.repoRoot, {}, QUICK_IMPORT_RUNS);
    const before = recorded[e.label];
    const ceiling = bundleCeiling(e.label);
    const sizeLimit = Math.min(ceiling, before ? before.bytes * 1.5 : ceiling);
    // A time is judged only against a median a full run recorded on this machine kind: an absolute limit
    // would fail on a loaded machine, which is noise, not a regression (decisions D116).
    const timeLimit = before ? before.importMs * QUICK_IMPORT_FACTOR : Infinity;
    const fails = [
      ...(built.code.byteLength > sizeLimit ? [`${kb(built.code.byteLength)} KB > ${kb(sizeLimit)} KB`] : []),
      ...(took > timeLimit ? [`import ${ms(took)} ms > ${ms(timeLimit)} ms`] : []),
    ];
    if (fails.length > 0) ok = false;
    lines.push(
      `${fails.length ? 'FAIL' : 'ok  '} ${e.label}: ${kb(built.code.byteLength)} KB, import ${ms(took)} ms` +
        (before
          ? ` (recorded ${kb(before.bytes)} KB, ${ms(before.importMs)} ms)`
          : ' (no recorded median: size checked, time only shown)') +
        (fails.length ? ` — ${fails.join('; ')}` : ''),
    );
  }
  return { ok, lines };
};

export const bundleSize: Benchmark = {
  name: 'bundle-size',
  description:
    'Every Lambda entry (HTTP areas, WebSocket handlers, queue consumers, ticks) bundled by the project’s Lambda ' +
    'construct exactly as `cdk deploy` would: size, gzip size, source map, and the time to import it in a fresh ' +
    'Node process; beside it the same Lambda with the other AWS SDK choice.',
  goal: `every deployed bundle under ${MAX_BUNDLE_BYTES / 1024} KB minified and imported in under ${MAX_IMPORT_MS} ms`,
  needsCloud: false,
  quick: quickCheck,
  run: async (ctx) => {
    const entries = lambdaEntries();
    ctx.log(`bundle-size: bundling ${entries.length} Lambdas with infra/constructs/zap-function.ts`);
    const deployBundles = await bundleWithConstruct(entries, join(ctx.workDir, 'cdk.out'));

    const rows: (string | number)[][] = [];
    const misses: string[] = [];
    const deployedChoices = new Set<SdkChoice>();
    const alternativeChoices = new Set<SdkChoice>();
    let biggest = { label: '', bytes: 0, pkg: '', pkgBytes: 0 };
    let slowest = { label: '', ms: 0 };
    let alternative = { bytes: 0, ms: 0 };
    const baseline: Record<string, LambdaBaseline> = {};
    for (const e of entries) {
      ctx.log(`bundle-size: ${e.label} (${e.entry})`);
      const deploy = deployBundles.get(e.entry)!;
      const deployedFile = join(deploy.dir, 'index.mjs');
      const deployedCode = readFileSync(deployedFile);
      const builds = {
        bundled: await analysisBuild(ctx, e, 'bundled'),
        external: await analysisBuild(ctx, e, 'external'),
      };
      const plain = withoutSourceMapComment(deployedCode);
      const choice = (['bundled', 'external'] as const).find((c) => builds[c].code.equals(plain));
      if (!choice) {
        throw new Error(
          `bench/benchmarks/bundle-size.ts no longer reproduces the construct's bundle of ${e.entry}: ` +
            'align analysisBuildOptions with infra/constructs/zap-function.ts',
        );
      }
      const other: SdkChoice = choice === 'bundled' ? 'external' : 'bundled';
      deployedChoices.add(choice);
      alternativeChoices.add(other);

      const deployedMs = await importMs([pathToFileURL(deployedFile).href], ctx.repoRoot, deploy.environment);
      // The variants are for comparison: fewer processes than the deployed bundle's figure.
      const otherMs = await importMs(
        [pathToFileURL(builds[other].outfile).href],
        ctx.repoRoot,
        deploy.environment,
        VARIANT_IMPORT_RUNS,
      );
      // What `NODE_OPTIONS=--enable-source-maps` would cost at start (decisions D115 dropped it).
      const withMapsMs = await importMs(
        [pathToFileURL(deployedFile).href],
        ctx.repoRoot,
        {
          ...deploy.environment,
          NODE_OPTIONS: [deploy.environment.NODE_OPTIONS, '--enable-source-maps'].filter(Boolean).join(' '),
        },
        VARIANT_IMPORT_RUNS,
      );
      baseline[e.label] = { importMs: Number(deployedMs.toFixed(1)), bytes: deployedCode.byteLength };

      if (deployedCode.byteLength >= bundleCeiling(e.label))
        misses.push(`${e.label} ${kb(deployedCode.byteLength)} KB`);
      if (deployedMs >= MAX_IMPORT_MS) misses.push(`${e.label} ${ms(deployedMs)} ms`);
      const [pkg, pkgBytes] = builds[choice].packages[0] ?? ['', 0];
      if (deployedCode.byteLength > biggest.bytes) {
        biggest = { label: e.label, bytes: deployedCode.byteLength, pkg, pkgBytes };
      }
      if (deployedMs > slowest.ms) slowest = { label: e.label, ms: deployedMs };
      alternative = {
        bytes: Math.max(alternative.bytes, builds[other].code.byteLength),
        ms: Math.max(alternative.ms, otherMs),
      };
      rows.push([
        e.label,
        `\`${e.entry}\``,
        kb(deployedCode.byteLength),
        kb(gzipSync(deployedCode).byteLength),
        fileKb(join(deploy.dir, 'index.mjs.map')),
        ms(deployedMs),
        top(builds[choice].packages, 4),
        kb(builds[other].code.byteLength),
        kb(gzipSync(builds[other].code).byteLength),
        ms(otherMs),
        ms(withMapsMs),
      ]);
    }
    writeBaseline(ctx.repoRoot, 'bundle-size', baseline);
    const deployedAs = [...deployedChoices].map((c) => CHOICE_TEXT[c]).join(' / ');
    const otherAs = [...alternativeChoices].map((c) => CHOICE_TEXT[c]).join(' / ');
    const table = markdownTable(
      [
        'Lambda',
        'entry',
        'deployed KB',
        'gzip KB',
        'source map KB',
        'import ms',
        'largest packages in the deployed bundle (KB)',
        'other SDK choice KB',
        'gzip KB',
        'import ms',
        'deployed with --enable-source-maps, import ms',
      ],
      rows,
      ['l', 'l', 'r', 'r', 'r', 'r', 'l', 'r', 'r', 'r', 'r'],
    );
    return {
      table,
      goalMet: misses.length === 0,
      summary:
        `${entries.length} Lambdas, deployed ${[...deployedChoices].map((c) => CHOICE_SHORT[c]).join(' / ')}. ` +
        `Largest: ${biggest.label}, ` +
        `${kb(biggest.bytes)} KB, of which ${biggest.pkg} ${kb(biggest.pkgBytes)} KB; slowest import ` +
        `${slowest.label}, ${ms(slowest.ms)} ms. With the other SDK choice: at most ${kb(alternative.bytes)} KB ` +
        `and ${ms(alternative.ms)} ms.` +
        (misses.length ? ` Over the goal: ${misses.join('; ')}.` : ''),
      notes: [
        `**Deployed** is what \`cdk deploy\` uploads, and what the goal applies to: each entry bundled by ` +
          `\`ZapFunction\` (infra/constructs/zap-function.ts) in a throwaway CDK app, today with the ` +
          `${deployedAs}. **Other SDK choice** is the same Lambda with the ${otherAs}; the nodejs22.x runtime ` +
          `ships AWS SDK v3, which is what a function with \`@aws-sdk/*\` external imports at start. ` +
          `**Deployed with --enable-source-maps** is the deployed bundle imported with that flag, as every ` +
          `function ran before decisions D115: Node then reads and parses the whole source map at start.`,
        `Method: esbuild ${esbuildVersion} as the construct runs it (ESM, node22, minified, tree-shaken, main ` +
          `fields module,main, \`createRequire\` banner, tsconfig.json paths, source maps without sources). A ` +
          `second esbuild build with a metafile names the largest packages; the run fails if it is not ` +
          `byte-identical to the construct's bundle. Sizes are the minified \`index.mjs\`; gzip is zlib's default ` +
          `level; the source map is uploaded beside it (to map a logged stack offline). Import: \`node --input-type=module ` +
          `-e "… await import(bundle) …"\` in a fresh process with the function's environment from the template, ` +
          `median of ${IMPORT_RUNS} processes (${VARIANT_IMPORT_RUNS} for the two comparison columns), on this machine's Node ` +
          `${process.version}, not Lambda's Node 22; SDK packages load from the repository's node_modules. Files ` +
          `stay in \`.bench/bundle-size/\` to inspect.`,
      ].join('\n\n'),
    };
  },
};
