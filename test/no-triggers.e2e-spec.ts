import { getDataSourceToken } from '@nestjs/typeorm';
import mysql from 'mysql2/promise';
import type { DataSource } from 'typeorm';
import { LINK_COLUMNS, LinksInEventRowWithTriggers, triggers } from './fixtures/links-in-event-row-triggers.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

/**
 * The schema holds tables and indexes only: a fresh database gets no trigger, and migrating it needs
 * no privilege beyond the ordinary ones. A database made while `LinksInEventRow1765000000000` made
 * triggers (15 of them, keeping copies of the events' links and a webhook count) loses them and their
 * columns when the application upgrades it in place.
 */
describe('a schema without triggers', () => {
  const rootUrl = process.env.DATABASE_URL?.trim();

  /** The triggers of the database `dataSource` works on, by name. */
  async function triggerNames(dataSource: DataSource): Promise<string[]> {
    const rows: Array<{ name: string }> =
      dataSource.driver.options.type === 'better-sqlite3'
        ? await dataSource.query("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        : await dataSource.query('SELECT TRIGGER_NAME AS name FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()');
    return rows.map((row) => row.name).sort();
  }

  async function columnsOf(dataSource: DataSource, table: string): Promise<string[]> {
    const runner = dataSource.createQueryRunner();
    try {
      return ((await runner.getTable(table))?.columns ?? []).map((column) => column.name);
    } finally {
      await runner.release();
    }
  }

  const send = (t: TestApp, method: 'get' | 'post' | 'delete', path: string, body?: Record<string, unknown>) =>
    t.http()[method](`${API}/${path}`).set('Authorization', basic(ADMIN)).send(body);
  const made = async (t: TestApp, path: string, body: Record<string, unknown>) => {
    const res = await send(t, 'post', path, body);
    expect(res.status).toBe(201);
    return res.body.id as number;
  };

  it('migrates a fresh database completely with CREATE, ALTER, DROP, INDEX, REFERENCES and the data privileges, and makes no trigger', async () => {
    let url = rootUrl;
    let dropPlain: () => Promise<void> = () => Promise.resolve();
    if (rootUrl) {
      // MySQL/MariaDB: a database of its own, migrated by a user holding only the ordinary privileges
      const root = new URL(rootUrl);
      const database = `${root.pathname.replace(/^\//, '')}_plain`;
      const user = `${database}_user`.slice(0, 32);
      const connection = await mysql.createConnection({ uri: `${root.protocol}//${root.username}@${root.host}/` });
      try {
        await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
        await connection.query(`CREATE DATABASE \`${database}\``);
        await connection.query(`DROP USER IF EXISTS '${user}'@'%'`);
        await connection.query(`CREATE USER '${user}'@'%' IDENTIFIED BY 'plain-password'`);
        await connection.query(
          `GRANT CREATE, ALTER, DROP, INDEX, REFERENCES, SELECT, INSERT, UPDATE, DELETE ON \`${database}\`.* TO '${user}'@'%'`,
        );
        const [grants] = await connection.query(`SHOW GRANTS FOR '${user}'@'%'`);
        expect(JSON.stringify(grants)).not.toMatch(/TRIGGER|SUPER|ALL PRIVILEGES/);
      } finally {
        await connection.end();
      }
      url = `${root.protocol}//${user}:plain-password@${root.host}/${database}`;
      dropPlain = async () => {
        const cleanup = await mysql.createConnection({ uri: `${root.protocol}//${root.username}@${root.host}/` });
        await cleanup.query(`DROP DATABASE IF EXISTS \`${database}\``);
        await cleanup.query(`DROP USER IF EXISTS '${user}'@'%'`);
        await cleanup.end();
      };
    }
    const t = await startTestApp(url ? { DATABASE_URL: url } : {});
    try {
      const dataSource = t.app.get<DataSource>(getDataSourceToken());
      expect(await dataSource.showMigrations()).toBe(false);
      expect(await triggerNames(dataSource)).toEqual([]);
      expect(await columnsOf(dataSource, 'events')).not.toContain('organizer_links');
      const organizer = await made(t, 'organizers', { organizer: 'Plain host' });
      const event = await made(t, 'events', {
        title: 'Plain',
        start_date: 'tomorrow 8pm',
        end_date: 'tomorrow 9pm',
        organizer: [organizer],
      });
      expect((await send(t, 'get', `events/${event}`)).body.organizer).toMatchObject([{ id: organizer }]);
    } finally {
      await t.close();
      await dropPlain();
    }
  }, 120_000);

  it('upgrades a database made with the triggers in place: they and their columns go, and events answer their links', async () => {
    const t = await startTestApp({ OUTBOUND_ALLOW_PRIVATE: 'true' });
    let upgraded: TestApp | undefined;
    try {
      const dataSource = t.app.get<DataSource>(getDataSourceToken());
      const organizers = [await made(t, 'organizers', { organizer: 'Host A' }), await made(t, 'organizers', { organizer: 'Host B' })];
      const categories = [await made(t, 'categories', { name: 'Kind A' }), await made(t, 'categories', { name: 'Kind B' })];
      const tag = await made(t, 'tags', { name: 'Mark' });
      const event = await made(t, 'events', {
        title: 'Linked',
        start_date: 'tomorrow 8pm',
        end_date: 'tomorrow 10pm',
        organizer: [organizers[1], organizers[0]],
        categories,
        tags: [tag],
      });
      const before = (await send(t, 'get', `events/${event}`)).body as Record<string, unknown>;
      // the database as the earlier migration left it: its triggers and the columns they keep, filled
      const runner = dataSource.createQueryRunner();
      try {
        await new LinksInEventRowWithTriggers().up(runner);
      } finally {
        await runner.release();
      }
      await dataSource.query(`DELETE FROM schema_migrations WHERE name = 'DropTriggers1765100000000'`);
      const sqlite = dataSource.driver.options.type === 'better-sqlite3';
      expect(await triggerNames(dataSource)).toEqual(
        triggers(sqlite)
          .map(({ name }) => name)
          .sort(),
      );
      expect(await columnsOf(dataSource, 'events')).toEqual(expect.arrayContaining(LINK_COLUMNS.map(({ column }) => column)));

      // the application starts on it, as the user that made it, and migrates it
      upgraded = await startTestApp({ OUTBOUND_ALLOW_PRIVATE: 'true' }, { sharing: t });
      const migrated = upgraded.app.get<DataSource>(getDataSourceToken());
      expect(await migrated.showMigrations()).toBe(false);
      expect(await triggerNames(migrated)).toEqual([]);
      const eventColumns = await columnsOf(migrated, 'events');
      for (const { column } of LINK_COLUMNS) expect(eventColumns).not.toContain(column);
      expect(await columnsOf(migrated, 'data_version')).not.toContain('active_webhooks');

      expect((await send(upgraded, 'get', `events/${event}`)).body).toEqual(before);
      // writes on the upgraded database keep links and counts right without the triggers
      const retitled = await send(upgraded, 'post', `events/${event}`, { title: 'Linked again' });
      expect(retitled.status).toBe(200);
      expect(retitled.body.organizer.map((item: { id: number }) => item.id)).toEqual([organizers[1], organizers[0]]);
      expect(retitled.body.categories.map((item: { id: number }) => item.id).sort()).toEqual([...categories].sort());
      expect((await send(upgraded, 'delete', `organizers/${organizers[1]}?force=true`)).status).toBe(200);
      expect((await send(upgraded, 'delete', `categories/${categories[0]}?force=true`)).status).toBe(200);
      const after = (await send(upgraded, 'get', `events/${event}`)).body;
      expect(after.organizer.map((item: { id: number }) => item.id)).toEqual([organizers[0]]);
      expect(after.categories.map((item: { id: number }) => item.id)).toEqual([categories[1]]);
      expect(after.tags.map((item: { id: number }) => item.id)).toEqual([tag]);
      const trashed = await send(upgraded, 'delete', `events/${event}`);
      expect(trashed.status).toBe(200);
      expect(trashed.body.organizer.map((item: { id: number }) => item.id)).toEqual([organizers[0]]);
      const [{ count }] = await migrated.query('SELECT published_count AS count FROM tags WHERE id = ?', [tag]);
      expect(Number(count)).toBe(0);
    } finally {
      await upgraded?.close();
      await t.close();
    }
  }, 120_000);
});
