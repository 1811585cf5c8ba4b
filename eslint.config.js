import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * DESIGN §3: dependencies point one way, `http|jobs|realtime|channels -> core -> data`, with leaf modules
 * (functions/shared/) every layer may use and wire contracts (functions/contracts/) shared with the browser.
 * A lower layer importing a higher one fails `npm run lint`; test/unit/layers.test.ts proves each rule bites.
 * Entry points (the HTTP areas, the SQS consumers and ticks, the WhatsApp worker) plug realtime's publisher
 * into core's notifier at cold start, so they may import realtime's entry-point module.
 */
const layer = (...names) => `(^|/)(${names.join('|')})/`;
const TOP = ['http', 'jobs', 'realtime', 'channels'];
const forbid = (regex, message) => ({ regex, message });
const DYNAMODB = {
  group: ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'],
  message: 'Only functions/data/ may import the DynamoDB client.',
};
const ROUTES = forbid('^(\\.\\./)+routes$', 'The route table belongs to the HTTP layer (functions/http/) and infra.');
const LAYERS = [
  {
    files: ['functions/shared/**'],
    patterns: [
      forbid(layer('core', 'data', 'contracts', ...TOP), 'functions/shared/ is a leaf: it imports no layer.'),
      ROUTES,
    ],
  },
  {
    files: ['functions/contracts/**'],
    patterns: [
      forbid('^\\.\\.(/|$)', 'functions/contracts/ is shared with the browser: it imports only zod and itself.'),
    ],
  },
  {
    files: ['functions/data/**'],
    patterns: [
      forbid(layer('core', ...TOP), 'functions/data/ is the lowest layer: it imports only shared/ and contracts/.'),
      ROUTES,
    ],
  },
  {
    files: ['functions/core/**'],
    patterns: [
      forbid(layer(...TOP), 'Core imports only data/, shared/ and contracts/; it publishes through core/notifier.ts.'),
      ROUTES,
    ],
  },
  {
    files: ['functions/realtime/**'],
    patterns: [forbid(layer('http', 'jobs', 'channels'), 'Realtime may not import another top layer.'), ROUTES],
  },
  {
    files: ['functions/channels/**'],
    ignores: ['functions/channels/whatsapp/worker.ts'],
    patterns: [
      forbid(layer('http', 'jobs', 'realtime'), 'A channel adapter may not import another top layer.'),
      ROUTES,
    ],
  },
  {
    files: ['functions/channels/whatsapp/worker.ts'],
    patterns: [forbid(layer('http', 'jobs'), 'The worker entry may import realtime/entry-point only.'), ROUTES],
  },
  {
    files: ['functions/jobs/**'],
    patterns: [forbid(layer('http'), 'Jobs may not import the HTTP layer.'), ROUTES],
  },
  { files: ['functions/http/**'], patterns: [] },
  {
    files: ['functions/routes.ts'],
    patterns: [forbid(layer('core', 'data', 'contracts', ...TOP), 'The route table imports only shared/.')],
  },
];

/**
 * DESIGN §3, §8: the browser reaches server code only through the wire contracts (`@contracts/` ->
 * functions/contracts/), and imports them with `import type`: they hold zod schemas, which must not enter
 * the bundle. The real-time catalogue (`@contracts/realtime`, no zod) is the one imported at run time.
 */
const frontendRules = {
  files: ['frontend/**/*.{ts,tsx}'],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          forbid('(^|/)functions/|^@functions(/|$)', 'The browser imports server code only through @contracts/.'),
          {
            ...forbid('^@contracts/(?!realtime$)', 'Import contracts with `import type`: zod stays out of the bundle.'),
            allowTypeImports: true,
          },
        ],
      },
    ],
  },
};

export const layerRules = LAYERS.map(({ files, ignores, patterns }) => ({
  files,
  ...(ignores ? { ignores } : {}),
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [...(files[0].startsWith('functions/data') ? [] : [DYNAMODB]), ...patterns] },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['node_modules', 'cdk.out', '.data', 'dist', 'frontend/dist', 'coverage', '.bench'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['frontend/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  ...layerRules,
  frontendRules,
  {
    // DESIGN §3: one config module reads the environment.
    files: ['functions/**/*.ts'],
    ignores: ['functions/shared/config.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through functions/shared/config.ts.' },
      ],
    },
  },
);
