import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamicModule, Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import mysql from 'mysql2/promise';
import request from 'supertest';
import { createApp, createFirstAdministrator } from '../../src/app.setup.js';
import { loadConfig, type AppConfig, type Env } from '../../src/config/app-config.js';
import { UsersService } from '../../src/users/users.service.js';
import type { UserRole } from '../../src/common/auth/roles.js';

export const ADMIN = { login: 'admin', password: 'admin-password-1' };
export const PUBLIC_URL = 'http://calendar.test';
export const API = '/wp-json/tribe/events/v1';

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  http: () => ReturnType<typeof request>;
  /** Creates a user with the given role; returns its Basic credentials. */
  user: (role: UserRole, login?: string) => Promise<Credentials>;
  close: () => Promise<void>;
}

export interface Credentials {
  login: string;
  password: string;
  id: number;
}

let counter = 0;

/**
 * Boots the real application (the same `createApp` as `main.ts`) on a fresh database: a temporary
 * SQLite file, or the MySQL/MariaDB database of `DATABASE_URL` emptied first.
 */
export async function startTestApp(
  overrides: Env = {},
  options: { sharing?: TestApp; modules?: Array<Type | DynamicModule>; database?: string; firstAdministrator?: boolean } = {},
): Promise<TestApp> {
  // `database`: a second instance on a database of its own (MySQL/MariaDB: `<name>_<database>`, created when missing)
  const databaseUrl = options.database
    ? otherDatabase(process.env.DATABASE_URL?.trim(), options.database)
    : process.env.DATABASE_URL?.trim();
  let sqliteDir: string | undefined;
  if (options.sharing) {
    // a second process on the same database: no reset
  } else if (databaseUrl) {
    await createMysqlDatabase(databaseUrl);
    await emptyMysqlDatabase(databaseUrl);
  } else {
    sqliteDir = mkdtempSync(join(tmpdir(), 'calendar-e2e-'));
  }
  const shared = options.sharing?.config.database;
  const config = loadConfig({
    PUBLIC_URL,
    LOG_LEVEL: 'silent',
    ADMIN_LOGIN: ADMIN.login,
    ADMIN_PASSWORD: ADMIN.password,
    LOGIN_FAILURE_LIMIT: '100000',
    // the fake sources and receivers of the tests listen on 127.0.0.1; test/outbound-guard.e2e-spec.ts runs with the default
    OUTBOUND_ALLOW_PRIVATE: 'true',
    ...(databaseUrl
      ? { DATABASE_URL: databaseUrl }
      : { SQLITE_PATH: shared?.kind === 'sqlite' ? shared.path : join(sqliteDir as string, 'test.sqlite') }),
    ...overrides,
  });
  const app = await createApp(config, { modules: options.modules });
  // `firstAdministrator: false`: start-up left unfinished (as between `listen` and the administrator in `serve`)
  if (options.firstAdministrator !== false) await createFirstAdministrator(app, config);
  const users = app.get(UsersService);
  return {
    app,
    config,
    http: () => request(app.getHttpServer()),
    user: async (role, login) => {
      const name = login ?? `${role}${++counter}`;
      const created = await users.createUser(name, role, `${name}-password`);
      return { login: name, password: created.password, id: created.user.id };
    },
    close: async () => {
      await app.close();
      if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
    },
  };
}

function otherDatabase(url: string | undefined, suffix: string): string | undefined {
  if (!url) return undefined;
  const parsed = new URL(url);
  parsed.pathname = `${parsed.pathname.replace(/^\//, '')}_${suffix}`;
  return parsed.toString();
}

async function createMysqlDatabase(url: string): Promise<void> {
  const parsed = new URL(url);
  const name = parsed.pathname.replace(/^\//, '');
  parsed.pathname = '/';
  const connection = await mysql.createConnection(parsed.toString());
  try {
    await connection.query(`CREATE DATABASE IF NOT EXISTS \`${name}\``);
  } finally {
    await connection.end();
  }
}

async function emptyMysqlDatabase(url: string): Promise<void> {
  const connection = await mysql.createConnection(url);
  try {
    const [rows] = await connection.query('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()');
    await connection.query('SET FOREIGN_KEY_CHECKS = 0');
    for (const row of rows as Array<{ name: string }>) await connection.query(`DROP TABLE \`${row.name}\``);
    await connection.query('SET FOREIGN_KEY_CHECKS = 1');
  } finally {
    await connection.end();
  }
}

export function basic(credentials: { login: string; password: string }): string {
  return `Basic ${Buffer.from(`${credentials.login}:${credentials.password}`).toString('base64')}`;
}

/** A write of its own (a new tag, as the administrator): the shared data version moves, every cached answer is stale. */
export function bumpDataVersion(t: TestApp): ReturnType<ReturnType<typeof request>['post']> {
  return t
    .http()
    .post(`${API}/tags`)
    .set('Authorization', basic(ADMIN))
    .send({ name: `Bump ${Date.now()} ${Math.random()}` });
}
