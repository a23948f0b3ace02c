// Lint rules of the project: typescript-eslint (recommended + type-aware), import hygiene, and the
// module boundaries of docs/ARCHITECTURE.md (which folder may import which). Import circles, and the
// same boundaries on the resolved files, are checked by dependency-cruiser (.dependency-cruiser.cjs).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const RESOURCE_NAMES = ['events', 'venues', 'organizers', 'categories', 'tags'];
const PLATFORM_NAMES = [
  'users',
  'editions',
  'i18n',
  'cache',
  'docs',
  'http',
  'limits',
  'health',
  'images',
  'changes',
  'webhooks',
  'metrics',
  'translations',
];
/** Features built on the resources (the importer): only the wiring imports them. */
const FEATURE_NAMES = ['importer', 'sources'];
/** Wiring of the whole application: it may import anything, and nothing below it imports it. */
const APP_NAMES = ['app.module', 'app.setup', 'main', 'lifecycle', 'cli', 'database'];

/** Extension modules (examples/, docs/EXTENDING.md) build on the core; no layer of src/ imports them. */
const NO_EXTENSIONS = {
  group: ['**/examples/**'],
  message:
    'src/ never imports examples/: extension modules register with the core (createApp(config, { modules })), not the other way round.',
};

/** One `no-restricted-imports` block per layer: a relative import naming a forbidden folder is an error. */
function boundaries(layers) {
  return layers.map(({ files, from, message }) => ({
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: [...new Set(from)].flatMap((name) => (name.includes('/') ? [name] : [`**/${name}/**`, `**/${name}.js`])), message },
            NO_EXTENSIONS,
          ].filter((pattern) => pattern.group.length > 0),
        },
      ],
    },
  }));
}

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
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Module boundaries of docs/ARCHITECTURE.md, checked on the import paths themselves.
  ...boundaries([
    {
      files: ['src/config/**'],
      from: ['common', 'http', 'items', 'terms', ...RESOURCE_NAMES, ...PLATFORM_NAMES, ...FEATURE_NAMES, ...APP_NAMES],
      message: 'config/ imports nothing from the app.',
    },
    {
      files: ['src/common/**'],
      // common/ has an http/ folder of its own: the platform's is two levels up
      from: [
        '../../http/**',
        'items',
        'terms',
        ...RESOURCE_NAMES,
        ...PLATFORM_NAMES.filter((name) => name !== 'http'),
        ...FEATURE_NAMES,
        ...APP_NAMES,
      ],
      message: 'common/ knows no resource, account, edition or cache: pass what it needs in.',
    },
    {
      files: ['src/items/**', 'src/terms/**'],
      from: [...RESOURCE_NAMES, ...FEATURE_NAMES, ...APP_NAMES],
      message: 'The shared item and taxonomy rules know no resource: give them an interface instead.',
    },
    {
      files: ['src/venues/**', 'src/organizers/**', 'src/categories/**', 'src/tags/**'],
      from: ['events', 'docs', ...FEATURE_NAMES, ...APP_NAMES],
      message: 'Venues, organizers and terms do not depend on events, nor on docs/.',
    },
    {
      files: ['src/events/**'],
      from: ['docs', ...FEATURE_NAMES, ...APP_NAMES],
      message: 'Controllers take their documentation types from common/openapi, not from docs/.',
    },
    {
      files: PLATFORM_NAMES.map((name) => `src/${name}/**`),
      from: [...RESOURCE_NAMES, ...FEATURE_NAMES, ...APP_NAMES],
      message: 'Platform modules know no resource: resources register with them, not the other way round.',
    },
    {
      files: FEATURE_NAMES.map((name) => `src/${name}/**`),
      from: ['docs', ...APP_NAMES],
      message:
        'The importer builds on resources, shared rules and platform; it takes its documentation decorators from common/openapi, and only the wiring imports it.',
    },
    {
      // the wiring may import anything of src/, but no extension either
      files: ['src/*.ts', 'src/cli/**', 'src/database/**'],
      from: [],
    },
  ]),
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
