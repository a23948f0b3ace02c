import { loadConfig } from './config/app-config.js';
import { describeDatabase, startupLines } from './startup-banner.js';

describe('start-up announcement', () => {
  const sqlite = loadConfig({ PUBLIC_URL: 'https://cal.example.org/cal', SQLITE_PATH: '/var/lib/cal/cal.sqlite', PORT: '8080' });

  it('names the API, the docs and the database, and shows a generated password once with the way to replace it', () => {
    const { banner, log, password } = startupLines(sqlite, { login: 'admin', generatedPassword: 'Abc123Abc123Abc123Abc123' });
    const text = banner.join('\n');
    expect(text).toContain('API       https://cal.example.org/cal/wp-json/tribe/events/v1');
    expect(text).toContain('Docs      https://cal.example.org/cal/docs');
    expect(text).toContain('Database  SQLite file /var/lib/cal/cal.sqlite');
    expect(text).toContain('password  Abc123Abc123Abc123Abc123');
    expect(text).toContain('npm run cli -- app-password:create --login admin');
    expect(log).toEqual([
      'Listening on port 8080; API https://cal.example.org/cal/wp-json/tribe/events/v1; docs https://cal.example.org/cal/docs; database: SQLite file /var/lib/cal/cal.sqlite.',
    ]);
    expect(password).toContain('Abc123Abc123Abc123Abc123');
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
