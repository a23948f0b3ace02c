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
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
    // the scaled-out topology of scripts/scale-env.sh, only when it runs (`npm run test:scale`)
    ...(process.env.SCALE_ENV ? [{ ...common, displayName: 'scale', testMatch: ['<rootDir>/test/scale/**/*.scale-spec.ts'] }] : []),
  ],
};
