/** Two projects (three with `npm run test:scale`): unit tests live beside the code, e2e tests in test/ boot the real app over HTTP (native ESM). */
const common = {
  testEnvironment: 'node',
  rootDir: '.',
  moduleFileExtensions: ['ts', 'js', 'json'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      {
        tsconfig: 'tsconfig.json',
        useESM: true,
        // the same Swagger plugin as `nest build`, so the document under test is the one served
        astTransformers: { before: ['<rootDir>/test/support/swagger-plugin-transformer.cjs'] },
      },
    ],
  },
};
module.exports = {
  testTimeout: 30000,
  // The test files run one at a time (`--maxWorkers=1`: they share the database they are given) in a
  // worker process that is replaced once it holds more than this after a file: every file loads the
  // app's whole module graph in a VM context of its own, which is never freed, so one process running
  // every file grows past 10 GB and its garbage collector ends up slowing every later file.
  workerIdleMemoryLimit: '1500MB',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
    // the scaled-out topology of scripts/scale-env.sh, only when it runs (`npm run test:scale`)
    ...(process.env.SCALE_ENV ? [{ ...common, displayName: 'scale', testMatch: ['<rootDir>/test/scale/**/*.scale-spec.ts'] }] : []),
  ],
};
