// The folders of src/ by layer (docs/ARCHITECTURE.md, "Layers"): the one list that eslint.config.mjs
// (no-restricted-imports) and .dependency-cruiser.cjs (the same directions on resolved files) read.
// A new module is added here, once.

/** The resources of the v1 contract. */
const RESOURCE_NAMES = ['events', 'venues', 'organizers', 'categories', 'tags'];
/** Platform modules: they know no resource; resources register with them. */
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
/** Features built on the resources (the importer, calendar sources, the tec/v1 API): only the wiring imports them. */
const FEATURE_NAMES = ['importer', 'sources', 'tec'];
/** Wiring of the whole application (files at the top of src/ and folders): it may import anything, and nothing below it imports it. */
const APP_FILES = ['app.module', 'app.setup', 'main', 'lifecycle'];
const APP_FOLDERS = ['cli', 'database'];

module.exports = { RESOURCE_NAMES, PLATFORM_NAMES, FEATURE_NAMES, APP_FILES, APP_FOLDERS };
