import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createRequire } from 'node:module';

/**
 * The example backup schedule of deploy/backup/ (docs/OPERATIONS.md, "A backup schedule"): the script
 * the timer and the cron line call backs up the database with the service's own tools and keeps exactly
 * the BACKUP_KEEP newest backups, removing none when the backup fails. Run here on a SQLite file; on a
 * MySQL/MariaDB run (DATABASE_URL) also with mysqldump against that database.
 */
/** The little of better-sqlite3 (installed with the service, without type declarations) used here. */
interface SqliteDatabase {
  pragma(statement: string): unknown;
  exec(sql: string): void;
  prepare(sql: string): { run(...values: unknown[]): unknown; get(...values: unknown[]): unknown };
  close(): void;
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (path: string, options?: { readonly?: boolean }) => SqliteDatabase;

const SCRIPT = join(process.cwd(), 'deploy/backup/calendar-backup.sh');
const BACKUP_NAME = /^calendar-\d{8}-\d{6}\.(sqlite|sql\.gz)$/;

let dir: string;
let backups: string;
let sqlitePath: string;
let server: SqliteDatabase;

function runBackup(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  // the service's environment without any database of the test run's own, plus what the case gives
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(DATABASE_|SQLITE_PATH$|BACKUP_)/.test(name)),
  ) as Record<string, string>;
  return new Promise((resolve) => {
    execFile('bash', [SCRIPT], { env: { ...base, NODE: process.execPath, BACKUP_DIR: backups, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const names = () => readdirSync(backups).sort();
const kept = () => names().filter((name) => BACKUP_NAME.test(name));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'calendar-backup-'));
  backups = join(dir, 'backups');
  mkdirSync(backups);
  sqlitePath = join(dir, 'calendar.sqlite');
  // kept open, as by a running server: its last writes are still in the write-ahead log, not the file
  server = new Database(sqlitePath);
  server.pragma('journal_mode = WAL');
  server.exec('CREATE TABLE events (id INTEGER PRIMARY KEY, title TEXT NOT NULL)');
  const insert = server.prepare('INSERT INTO events (title) VALUES (?)');
  for (let i = 1; i <= 250; i += 1) insert.run(`Harbour walk ${i} – Grüße`);
});
afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('deploy/backup/calendar-backup.sh', () => {
  it('backs up the SQLite file and keeps exactly the BACKUP_KEEP newest backups', async () => {
    const older = [
      'calendar-20260101-031500.sqlite',
      'calendar-20260102-031500.sql.gz',
      'calendar-20260103-031500.sqlite',
      'calendar-20260104-031500.sqlite',
      'calendar-20260105-031500.sqlite',
    ];
    for (const name of older) writeFileSync(join(backups, name), 'an older backup');
    // not backups of this schedule: never removed
    for (const name of ['notes.txt', 'calendar-before-upgrade.sqlite']) writeFileSync(join(backups, name), 'keep me');

    const first = await runBackup({ SQLITE_PATH: sqlitePath, BACKUP_KEEP: '3' });
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const made = kept().filter((name) => !older.includes(name));
    expect(made).toHaveLength(1);
    expect(kept()).toEqual(['calendar-20260104-031500.sqlite', 'calendar-20260105-031500.sqlite', made[0]]);
    expect(first.stdout).toContain(`Backed up to ${join(backups, made[0])}; 3 backups kept, 3 removed.`);
    expect(names()).toEqual(expect.arrayContaining(['notes.txt', 'calendar-before-upgrade.sqlite']));
    expect(names().filter((name) => name.startsWith('.') || name.endsWith('-wal') || name.endsWith('-shm'))).toEqual([]);

    // the backup is the whole database, the writes still in the log included
    expect(readFileSync(`${sqlitePath}-wal`).length).toBeGreaterThan(0);
    const copy = new Database(join(backups, made[0]), { readonly: true });
    expect(copy.prepare('SELECT COUNT(*) AS n, MAX(title) AS last FROM events').get()).toEqual({ n: 250, last: 'Harbour walk 99 – Grüße' });
    copy.close();

    // a day later (here: a second later): the oldest goes, still exactly three
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await runBackup({ SQLITE_PATH: sqlitePath, BACKUP_KEEP: '3' });
    expect(second.code).toBe(0);
    const newest = kept().filter((name) => name !== made[0] && !older.includes(name));
    expect(newest).toHaveLength(1);
    expect(kept()).toEqual(['calendar-20260105-031500.sqlite', made[0], newest[0]]);
  });

  it('removes nothing when the backup fails, and leaves no half-written file', async () => {
    const before = names();
    const failed = await runBackup({ SQLITE_PATH: join(dir, 'no-such-database.sqlite'), BACKUP_KEEP: '1' });
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain('Backup failed');
    expect(names()).toEqual(before);
  });

  it('refuses a retention that is not a whole number of at least 1', async () => {
    const before = names();
    for (const keep of ['0', '-1', 'two', '1.5']) {
      const refused = await runBackup({ SQLITE_PATH: sqlitePath, BACKUP_KEEP: keep });
      expect({ keep, code: refused.code }).toEqual({ keep, code: 1 });
      expect(refused.stderr).toContain('BACKUP_KEEP must be a whole number of at least 1');
    }
    expect(names()).toEqual(before);
  });

  const databaseUrl = process.env.DATABASE_URL;
  const mysqldump = ['/usr/bin/mysqldump', '/usr/local/bin/mysqldump'].some((path) => existsSync(path));
  (databaseUrl && mysqldump ? it : it.skip)('dumps MySQL/MariaDB with mysqldump and keeps BACKUP_KEEP of the newest', async () => {
    const url = new URL(databaseUrl as string);
    const cnf = join(dir, 'mysql-backup.cnf');
    const option = (name: string, value: string) => (value === '' ? '' : `${name}=${decodeURIComponent(value)}\n`);
    writeFileSync(
      cnf,
      `[client]\n${option('host', url.hostname)}${option('port', url.port)}${option('user', url.username)}${option('password', url.password)}`,
      { mode: 0o600 },
    );
    const mysqlBackups = join(dir, 'mysql-backups');
    mkdirSync(mysqlBackups);
    for (const name of ['calendar-20260101-031500.sql.gz', 'calendar-20260102-031500.sql.gz']) writeFileSync(join(mysqlBackups, name), '');
    const dumped = await runBackup({
      DATABASE_URL: databaseUrl as string,
      BACKUP_MYSQL_CNF: cnf,
      BACKUP_DIR: mysqlBackups,
      BACKUP_KEEP: '2',
    });
    expect(dumped).toMatchObject({ code: 0, stderr: '' });
    const files = readdirSync(mysqlBackups).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toBe('calendar-20260102-031500.sql.gz');
    expect(gunzipSync(readFileSync(join(mysqlBackups, files[1]))).toString('utf8')).toMatch(/-- (MySQL|MariaDB) dump/);
  });
});
