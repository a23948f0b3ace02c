import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/** The cache in front, as deploy/ ships it. */
export const EDGE_TEMPLATE = 'deploy/nginx/calendar.conf.template';

/** The nginx program: `NGINX_BIN`, else Debian's (`apt-get install -y nginx`), else one on the path; null when there is none. */
export function nginxBinary(): string | null {
  for (const candidate of [process.env.NGINX_BIN, '/usr/sbin/nginx', '/usr/bin/nginx'])
    if (candidate && existsSync(candidate)) return candidate;
  return spawnSync('nginx', ['-v']).status === 0 ? 'nginx' : null;
}

/**
 * The template with its `${EDGE_…}` variables replaced, as the nginx image's envsubst does when it
 * renders /etc/nginx/templates/; a variable without a value is an error, so a new one is noticed.
 */
export function renderEdgeConfig(values: Record<string, string>): string {
  return readFileSync(EDGE_TEMPLATE, 'utf8').replace(/\$\{(EDGE_[A-Z_]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${EDGE_TEMPLATE} uses \${${name}}, which the test does not set`);
    return value;
  });
}

export interface Edge {
  /** `http://127.0.0.1:<port>` of nginx. */
  base: string;
  /** The cached answers, as files. */
  cacheDir: string;
  /** Every cached file's bytes, for looking for what must never be there. */
  cachedBytes: () => Buffer[];
  stop: () => Promise<void>;
}

/**
 * Starts nginx with the shipped template in front of `upstream` (`host:port`), in a directory of its
 * own (cache, temporary files, logs, pid), inside an `http` block like the one of the nginx image's
 * own nginx.conf; answers once it proxies requests.
 */
export async function startEdge(binary: string, upstream: string): Promise<Edge> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'calendar-edge-'));
  const cacheDir = join(dir, 'cache');
  const temp = join(dir, 'temp');
  mkdirSync(cacheDir);
  mkdirSync(temp);
  // run as root, nginx's workers are `nobody`: they write the cache and temporary files
  chmodSync(dir, 0o755);
  chmodSync(cacheDir, 0o777);
  chmodSync(temp, 0o777);
  writeFileSync(
    join(dir, 'calendar.conf'),
    renderEdgeConfig({
      EDGE_LISTEN: `127.0.0.1:${port}`,
      EDGE_UPSTREAM: upstream,
      EDGE_CACHE_DIR: cacheDir,
      EDGE_ACCESS_LOG: join(dir, 'access.log'),
    }),
  );
  const tempPaths = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `${kind}_temp_path ${join(temp, kind)};`);
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      '  default_type application/octet-stream;',
      '  sendfile on;',
      '  keepalive_timeout 65;',
      ...tempPaths.map((line) => `  ${line}`),
      `  include ${join(dir, 'calendar.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  const child = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const errors = () => (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '');
  const base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited ${child.exitCode}: ${errors()}`);
    try {
      await fetch(`${base}/health`);
      break;
    } catch {
      if (attempt > 100) {
        child.kill('SIGKILL');
        throw new Error(`nginx did not answer: ${errors()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const files = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(folder, entry.name)) : [join(folder, entry.name)],
    );
  return {
    base,
    cacheDir,
    cachedBytes: () => files(cacheDir).map((file) => readFileSync(file)),
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
