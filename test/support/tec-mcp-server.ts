import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** The vendor's MCP server (commit 4fcf794), kept unchanged in the shared folder beside the repository. */
export const TEC_MCP_SOURCE = fileURLToPath(new URL('../../../shared/clients/tec-mcp-server/', import.meta.url));

/** The files of the client that decide what gets built (node_modules and dist of a stray local build are left out). */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name === 'dist' || name === '.git') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else out.push(path);
  }
  return out;
}

/** npm as the test run was started with it (`npm test` names its own script), else the one on PATH. */
function npm(args: string[], cwd: string): void {
  const cli = process.env.npm_execpath;
  const [command, argv] = cli && cli.endsWith('.js') ? [process.execPath, [cli, ...args]] : ['npm', args];
  try {
    execFileSync(command, argv, { cwd, stdio: 'pipe', env: { ...process.env, npm_config_loglevel: 'error' }, timeout: 150_000 });
  } catch (error) {
    const failed = error as { stdout?: Buffer; stderr?: Buffer; message: string };
    throw new Error(
      `Preparing the vendor's MCP server failed at \`npm ${args.join(' ')}\` in ${cwd}: ${failed.message}\n` +
        `${failed.stdout?.toString() ?? ''}${failed.stderr?.toString() ?? ''}`,
      { cause: error },
    );
  }
}

/**
 * The vendor's MCP server, installed (`npm ci`) and built (its `build` script) in a copy under the
 * system's temporary folder, once: the folder is named after a hash of the client's package-lock.json
 * and of its other files, so later runs (and CI) reuse it until the client changes. The copy is built
 * in a folder of its own and renamed into place when complete, so an interrupted or concurrent run
 * never leaves a half-prepared copy behind. Throws (the tests fail) when it cannot be prepared.
 * Returns the path of its entry point, `dist/index.js`.
 */
export function prepareTecMcpServer(): string {
  if (!existsSync(join(TEC_MCP_SOURCE, 'package-lock.json')))
    throw new Error(`The vendor's MCP server is missing: no package-lock.json in ${TEC_MCP_SOURCE}`);
  const hash = createHash('sha256');
  hash.update(readFileSync(join(TEC_MCP_SOURCE, 'package-lock.json')));
  for (const file of sourceFiles(TEC_MCP_SOURCE)) hash.update(`\0${relative(TEC_MCP_SOURCE, file)}\0`).update(readFileSync(file));
  const target = join(tmpdir(), `calendar-tec-mcp-server-${hash.digest('hex').slice(0, 16)}`);
  const entry = join(target, 'dist', 'index.js');
  if (existsSync(entry)) return entry;

  const work = `${target}.${process.pid}.partial`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    cpSync(TEC_MCP_SOURCE, work, {
      recursive: true,
      filter: (path) => !/[/\\](node_modules|dist|\.git)$/.test(path),
    });
    // its one install script (esbuild's binary) serves a build this test does not make
    npm(['ci', '--no-audit', '--no-fund', '--ignore-scripts'], work);
    npm(['run', 'build', '--silent'], work);
    if (!existsSync(join(work, 'dist', 'index.js')))
      throw new Error(`The build of the vendor's MCP server left no dist/index.js in ${work}`);
    try {
      renameSync(work, target);
    } catch (error) {
      // another run put its complete copy there first
      if (!existsSync(entry)) throw error;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return entry;
}

/** The server as an MCP client sees it, with what it wrote to its standard error. */
export interface TecMcpSession {
  client: Client;
  stderr: () => string;
  close: () => Promise<void>;
}

/**
 * Spawns the prepared server over stdio with the site's URL and an application password in its
 * environment (nothing else of the test run's), and connects an MCP client to it.
 */
export async function connectTecMcpServer(
  entry: string,
  site: { url: string; username: string; appPassword: string },
  extraEnv: Record<string, string> = {},
): Promise<TecMcpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [entry],
    // the prepared copy holds no .env, so its dotenv reads nothing
    cwd: join(entry, '..', '..'),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      WP_URL: site.url,
      WP_USERNAME: site.username,
      WP_APP_PASSWORD: site.appPassword,
      // its flexible dates are read and written in the process's zone: the same on every machine
      TZ: 'UTC',
      ...extraEnv,
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'calendar-e2e', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    // what it wrote last may still be on its way through the pipe
    const stream = transport.stderr as (NodeJS.ReadableStream & { readableEnded?: boolean }) | null;
    if (stream && !stream.readableEnded)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 2000);
        stream.once('end', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    await transport.close().catch(() => undefined);
    throw new Error(`The vendor's MCP server did not start: ${(error as Error).message}\nIts standard error:\n${stderr}`, { cause: error });
  }
  return { client, stderr: () => stderr, close: () => client.close() };
}
