// dependency-cruiser: no import circles, and the module boundaries of docs/ARCHITECTURE.md (the same
// forbidden directions as the `no-restricted-imports` blocks of eslint.config.mjs, checked here on the
// resolved files). Run by `npm run lint:deps`, part of `npm run lint`.
//
// Type-only imports count (`tsPreCompilationDeps`): a circle through `import type` is still a circle
// for the reader, and a boundary crossed by a type is still crossed.

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

/** `^src/(a|b|c)/`: any file in one of these folders of src/. */
const folders = (names) => `^src/(${names.join('|')})/`;

const RESOURCES = folders(RESOURCE_NAMES);
/** Features built on the resources (the importer): the wiring uses them, nothing below them does. */
const FEATURES = folders(['importer', 'sources']);
const PLATFORM = folders(PLATFORM_NAMES);
/** Wiring of the whole application: it may import anything, and nothing below it imports it. */
const APP = ['^src/(app\\.module|app\\.setup|main|lifecycle)\\.ts$', folders(['cli', 'database'])];
/**
 * The wiring of an example: its tests and its own entry point boot the application (`createApp`),
 * as test/ does; the example module itself is code like a resource's and stays off the wiring.
 */
const EXAMPLE_WIRING = ['^examples/.*/test/', '\\.(spec|e2e-spec)\\.ts$', '^examples/[^/]+/main\\.ts$'];
/** Anything of this project, as opposed to node_modules and Node's own modules. */
const OWN = '^(src|examples)/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles, at file level (docs/ARCHITECTURE.md). Type-only imports count too.',
      from: { path: OWN },
      to: { circular: true },
    },
    {
      name: 'config-imports-nothing',
      severity: 'error',
      comment: 'config/ imports nothing from the app.',
      from: { path: '^src/config/' },
      to: { path: OWN, pathNot: '^src/config/' },
    },
    {
      name: 'common-imports-only-config',
      severity: 'error',
      comment: 'common/ knows no resource, account, edition or cache: pass what it needs in.',
      from: { path: '^src/common/' },
      to: { path: OWN, pathNot: folders(['common', 'config']) },
    },
    {
      name: 'shared-rules-know-no-resource',
      severity: 'error',
      comment: 'The shared item and taxonomy rules know no resource: give them an interface instead.',
      from: { path: folders(['items', 'terms']) },
      to: { path: RESOURCES },
    },
    {
      name: 'resources-below-events',
      severity: 'error',
      comment: 'Venues, organizers and terms do not depend on events, nor on docs/.',
      from: { path: folders(['venues', 'organizers', 'categories', 'tags']) },
      to: { path: folders(['events', 'docs']) },
    },
    {
      name: 'events-not-docs',
      severity: 'error',
      comment: 'Controllers take their documentation types from common/openapi, not from docs/.',
      from: { path: '^src/events/' },
      to: { path: '^src/docs/' },
    },
    {
      name: 'platform-knows-no-resource',
      severity: 'error',
      comment: 'Platform modules know no resource: resources register with them, not the other way round.',
      from: { path: PLATFORM },
      to: { path: RESOURCES },
    },
    {
      name: 'nothing-below-imports-features',
      severity: 'error',
      comment: 'The importer builds on resources, shared rules, platform and common; none of them depends on it.',
      from: { path: folders([...RESOURCE_NAMES, ...PLATFORM_NAMES, 'items', 'terms', 'common', 'config']) },
      to: { path: FEATURES },
    },
    {
      name: 'features-not-docs',
      severity: 'error',
      comment: 'The importer takes its documentation decorators from common/openapi, not from docs/.',
      from: { path: FEATURES },
      to: { path: '^src/docs/' },
    },
    {
      name: 'src-not-examples',
      severity: 'error',
      comment: 'The application does not depend on its examples.',
      from: { path: '^src/' },
      to: { path: '^examples/' },
    },
    {
      name: 'only-wiring-imports-wiring',
      severity: 'error',
      comment: 'app.module, app.setup, main, lifecycle, cli/ and database/ are imported by the wiring only.',
      from: { path: OWN, pathNot: [...APP, ...EXAMPLE_WIRING] },
      to: { path: APP },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'Every import resolves (a `.js` specifier to its `.ts` source): an unresolved one would hide its edge from the rules above.',
      from: { path: OWN },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // `import './x.js'` resolves to ./x.ts (dependency-cruiser tries .ts when the .js file does not exist)
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};
