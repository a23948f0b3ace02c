import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Which release this process runs: the version of package.json and the commit dist/ was built from. */
export interface BuildInfo {
  version: string;
  /** The commit's full id (`-dirty` when the tree had uncommitted changes), or null when the build did not know it. */
  commit: string | null;
}

const HERE = dirname(fileURLToPath(import.meta.url));

let known: BuildInfo | undefined;

/**
 * What `scripts/build-info.mjs` wrote into `dist/build-info.json` at build time (the commit from
 * `APP_COMMIT` when the build had it, else from `git rev-parse HEAD`). Running from the sources (the
 * tests) there is no such file: the version comes from package.json and the commit is unknown.
 */
export function buildInfo(): BuildInfo {
  known ??= readBuildInfo();
  return known;
}

/** The commit shortened to the length people quote, or `unknown`. */
export function shortCommit(info: BuildInfo = buildInfo()): string {
  return info.commit === null ? 'unknown' : info.commit.replace(/^([0-9a-f]{12})[0-9a-f]*/, '$1');
}

function readBuildInfo(): BuildInfo {
  // dist/src/build-info.js → dist/build-info.json
  const written = join(HERE, '..', 'build-info.json');
  if (existsSync(written)) {
    const parsed = JSON.parse(readFileSync(written, 'utf8')) as Partial<BuildInfo>;
    return { version: String(parsed.version ?? packageVersion()), commit: typeof parsed.commit === 'string' ? parsed.commit : null };
  }
  return { version: packageVersion(), commit: null };
}

function packageVersion(): string {
  for (let dir = HERE; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return String((JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown');
    if (dirname(dir) === dir) return 'unknown';
  }
}
