// Records which release dist/ holds, for the start-up line and GET /health: dist/build-info.json with
// package.json's version and the commit the build was made from. The commit is APP_COMMIT when the
// build is given one (an image build, where .git is not in the build context), else `git rev-parse
// HEAD` with `-dirty` when tracked files differ from it, else null. Also stamps dist/.built, the time
// scripts/ensure-built.mjs compares the sources with.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

function git(...args) {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

function commit() {
  const given = (process.env.APP_COMMIT ?? '').trim();
  if (given !== '') return given;
  const head = git('rev-parse', 'HEAD');
  if (head === null) return null;
  const changed = git('status', '--porcelain', '--untracked-files=no');
  return changed ? `${head}-dirty` : head;
}

export function writeBuildInfo() {
  const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
  const info = { version, commit: commit(), builtAt: new Date().toISOString() };
  writeFileSync('dist/build-info.json', `${JSON.stringify(info, null, 2)}\n`);
  writeFileSync('dist/.built', info.builtAt);
  return info;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) writeBuildInfo();
