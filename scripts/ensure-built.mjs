// Builds dist/ only when a source is newer than the last build, so `npm start`, `npm run cli` and
// `npm run seed` on a built tree start at once. Compiles over the existing dist/ (never wipes it
// under a running server); `npm run build` is the clean build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const STAMP = 'dist/.built';
const SOURCES = ['src', 'examples', 'ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json', 'package-lock.json'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

/** The version dist/ says it holds, against package.json's: a new version number needs a build too. */
function versionChanged() {
  const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : undefined);
  return read('dist/build-info.json') !== read('package.json');
}

const builtAt = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
if (Math.max(...SOURCES.map(newest)) > builtAt || versionChanged()) {
  process.stderr.write('Sources changed since the last build: building dist/ ...\n');
  const started = Date.now();
  const result = spawnSync(process.execPath, ['node_modules/@nestjs/cli/bin/nest.js', 'build', '--config', 'nest-cli.incremental.json'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  // dist/build-info.json and the stamp (loaded only here: an installed image has no build to do)
  const { writeBuildInfo } = await import('./build-info.mjs');
  writeBuildInfo();
  process.stderr.write(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
}
