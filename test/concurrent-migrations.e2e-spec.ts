import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import request from 'supertest';
import { MIGRATIONS } from '../src/database/migrations/index.js';
import { freePort } from './support/free-port.js';
import { ensureBuilt, parseJsonLines, startServer, type ServerProcess } from './support/server-process.js';

/**
 * Several processes started at once against one fresh MySQL/MariaDB database (replicas of a
 * deployment rolled out together, with TypeORM's own `migration:run` beside them): they migrate one
 * after the other under the migration lock, every process comes up, and each migration is applied
 * and recorded once (docs/SCALING.md, "Migrations and several processes").
 */
const given = process.env.DATABASE_URL?.trim();
const describeOnMysql = given ? describe : describe.skip;

describeOnMysql('processes started at once against a fresh database', () => {
  const name = `${new URL(given ?? 'mysql://x/none').pathname.slice(1)}_migrate_race`;
  let url: string;
  let servers: ServerProcess[] = [];
  let dir: string;

  beforeAll(async () => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'calendar-migrate-race-'));
    const admin = await mysql.createConnection(given as string);
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await admin.end();
    const parsed = new URL(given as string);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
  }, 240_000);
  afterAll(async () => {
    for (const server of servers) server.stop();
    const admin = await mysql.createConnection(given as string);
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  });

  it('migrate one after the other: all come up, each migration applied once', async () => {
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    servers = ports.map((port) =>
      startServer({
        DATABASE_URL: url,
        PORT: String(port),
        LOG_FORMAT: 'json',
        ADMIN_LOGIN: 'admin',
        ADMIN_PASSWORD: 'a-long-admin-password',
      }),
    );
    // the command line's run joins in once the servers are connected and about to migrate
    await Promise.all(servers.map((server) => server.waitForLine((line) => line.text.includes('Database answers'), 120_000)));
    const cli = new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['node_modules/typeorm/cli.js', 'migration:run', '-d', 'dist/ormconfig.js'], {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: url },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => resolve({ code, output }));
    });
    const started = await Promise.all(
      servers.map((server) =>
        Promise.race([
          server.waitForLine((line) => line.text.includes('"context":"Startup"') && line.text.includes('Listening on port'), 120_000),
          server.exited.then(({ code }) => {
            throw new Error(`a server exited (${code}) instead of starting:\n${server.lines.map((line) => line.text).join('\n')}`);
          }),
        ]),
      ),
    );
    expect(started).toHaveLength(3);
    const migrated = await cli;
    expect({ code: migrated.code, output: migrated.output }).toMatchObject({ code: 0 });

    for (const port of ports) expect((await request(`http://127.0.0.1:${port}`).get('/health/ready')).status).toBe(200);

    const connection = await mysql.createConnection(url);
    const [rows] = await connection.query('SELECT name, COUNT(*) AS times FROM schema_migrations GROUP BY name');
    await connection.end();
    expect((rows as Array<{ times: number }>).map((row) => Number(row.times))).toEqual(MIGRATIONS.map(() => 1));

    // one process applied them; each other server found the schema up to date
    const applied = servers.map((server) =>
      parseJsonLines(server.lines).records.filter((record) => record.context === 'Migrations' && String(record.msg).startsWith('Applied')),
    );
    const appliedByCli = /Migration \S+ has been executed successfully/.test(migrated.output);
    expect(applied.filter((lines) => lines.length > 0).length + (appliedByCli ? 1 : 0)).toBe(1);
    for (const server of servers)
      if (!applied[servers.indexOf(server)].length)
        expect(parseJsonLines(server.lines).records.some((record) => record.msg === 'The schema is up to date.')).toBe(true);
  }, 240_000);
});
