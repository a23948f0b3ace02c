// Lint rules of the project: typescript-eslint (recommended + type-aware), import hygiene, and the
// module boundaries of docs/ARCHITECTURE.md (which folder may import which, no import circles).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** Everything that builds on the shared layers; the shared layers must not import any of it. */
const RESOURCES = ['events', 'venues', 'organizers', 'categories', 'tags'].map((name) => `./src/${name}`);
const PLATFORM = ['users', 'editions', 'i18n', 'cache', 'docs', 'http', 'limits', 'health', 'images'].map((name) => `./src/${name}`);
/** Wiring of the whole application: it may import anything, and nothing below it imports it. */
const APP = ['./src/app.module.ts', './src/app.setup.ts', './src/main.ts', './src/lifecycle.ts', './src/cli', './src/database'];

const NODE_GLOBALS = [
  'process',
  'console',
  'Buffer',
  'URL',
  'URLSearchParams',
  'fetch',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'performance',
  'AbortController',
  'AbortSignal',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'data/**', 'bench/results/**', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-duplicates': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/config', from: './src', except: ['./config'], message: 'config/ imports nothing from the app.' },
            {
              target: './src/common',
              from: [...RESOURCES, ...PLATFORM, './src/items', './src/terms', ...APP],
              message: 'common/ knows no resource, account, edition or cache: pass what it needs in.',
            },
            {
              target: ['./src/items', './src/terms'],
              from: [...RESOURCES, ...APP],
              message: 'The shared item and taxonomy rules know no resource: give them an interface instead.',
            },
            {
              target: ['./src/venues', './src/organizers', './src/categories', './src/tags'],
              from: ['./src/events', ...APP],
              message: 'Venues, organizers and terms do not depend on events.',
            },
            {
              target: [...RESOURCES, './src/items', './src/terms'],
              from: './src/docs',
              message: 'Controllers take their documentation types from common/openapi, not from docs/.',
            },
            {
              target: PLATFORM,
              from: [...RESOURCES, ...APP],
              message: 'Platform modules know no resource: resources register with them, not the other way round.',
            },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts', 'bench/**', 'examples/**/test/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: Object.fromEntries(NODE_GLOBALS.map((name) => [name, 'readonly'])),
    },
  },
  prettier,
);
