import { loadConfig } from './config/app-config.js';
import { describeDatabase, startupLines } from './startup-banner.js';

describe('start-up announcement', () => {
  const sqlite = loadConfig({ PUBLIC_URL: 'https://cal.example.org/cal', SQLITE_PATH: '/var/lib/cal/cal.sqlite', PORT: '8080' });

  it('names the API, the docs and the database, and shows a generated password once with the way to replace it', () => {
    const build = { version: '1.9.0', commit: '0123456789abcdef0123456789abcdef01234567' };
    const { banner, log, password, release } = startupLines(
      sqlite,
      { login: 'admin', generatedPassword: 'Abc123Abc123Abc123Abc123' },
      build,
    );
    const text = banner.join('\n');
    expect(text).toContain('Event calendar API 1.9.0 (0123456789ab) listening on port 8080');
    expect(text).toContain('API       https://cal.example.org/cal/wp-json/tribe/events/v1');
    expect(text).toContain('Docs      https://cal.example.org/cal/docs');
    expect(text).toContain('Database  SQLite file /var/lib/cal/cal.sqlite');
    expect(text).toContain('password  Abc123Abc123Abc123Abc123');
    expect(text).toContain('npm run cli -- app-password:create --login admin');
    expect(log).toEqual([
      'Listening on port 8080; version 1.9.0, commit 0123456789ab; API https://cal.example.org/cal/wp-json/tribe/events/v1; docs https://cal.example.org/cal/docs; database: SQLite file /var/lib/cal/cal.sqlite.',
    ]);
    expect(password).toContain('Abc123Abc123Abc123Abc123');
    expect(release).toEqual(build);
  });

  it('says so when the build did not know its commit', () => {
    const { log, release } = startupLines(sqlite, null, { version: '1.9.0', commit: null });
    expect(log[0]).toContain('; version 1.9.0, commit unknown; ');
    expect(release).toEqual({ version: '1.9.0', commit: null });
  });

  it('shows no password when the administrator came from ADMIN_PASSWORD or already existed', () => {
    expect(startupLines(sqlite, { login: 'admin', generatedPassword: null }).password).toBeNull();
    expect(startupLines(sqlite, null).banner.join('\n')).not.toContain('password');
  });

  it('never prints the password of a database URL', () => {
    const mysql = loadConfig({ PUBLIC_URL: 'http://localhost:3000', DATABASE_URL: 'mysql://cal:s3cret@db.internal:3306/calendar' });
    expect(describeDatabase(mysql)).toBe('MySQL/MariaDB cal@db.internal:3306/calendar');
  });
});
