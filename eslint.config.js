import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
  {
    // DESIGN §3: only repositories (functions/data) talk to DynamoDB.
    files: ['functions/**/*.ts'],
    ignores: ['functions/data/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'],
              message: 'Only functions/data/ may import the DynamoDB client.',
            },
          ],
        },
      ],
    },
  },
  {
    // DESIGN §3: one config module reads the environment.
    files: ['functions/**/*.ts'],
    ignores: ['functions/config.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through functions/config.ts.' },
      ],
    },
  },
);
