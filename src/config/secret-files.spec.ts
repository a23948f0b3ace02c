import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './app-config.js';
import { SECRET_VARIABLES } from './secret-files.js';

describe('secrets from files (<NAME>_FILE)', () => {
  let dir: string;
  const file = (name: string, contents: string) => {
    const path = join(dir, name);
    writeFileSync(path, contents);
    return path;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'secret-files-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads each secret setting from its file, without the trailing line break', () => {
    const config = loadConfig({
      DATABASE_HOST: 'db',
      DATABASE_USER: 'calendar',
      DATABASE_NAME: 'calendar',
      DATABASE_PASSWORD_FILE: file('db-password', 'p/a#s s%\n'),
      DATABASE_REPLICA_HOSTS: 'replica-1',
      ADMIN_LOGIN: 'admin',
      ADMIN_PASSWORD_FILE: file('admin-password', 'admin-secret-1\r\n'),
      REDIS_URL_FILE: file('redis-url', 'redis://:redis-secret@cache:6379\n'),
      METRICS_TOKEN_FILE: file('metrics-token', 'scrape-token-0123456789abcdef\n'),
    });
    // a password with / # % and a space, given in parts, works as it is (encoded into the URL)
    expect(config.database).toMatchObject({
      url: 'mysql://calendar:p%2Fa%23s%20s%25@db:3306/calendar',
      replicaUrls: ['mysql://calendar:p%2Fa%23s%20s%25@replica-1:3306/calendar'],
    });
    expect(config.admin).toEqual({ login: 'admin', password: 'admin-secret-1' });
    expect(config.limits.redisUrl).toBe('redis://:redis-secret@cache:6379');
    expect(config.metrics.token).toBe('scrape-token-0123456789abcdef');
  });

  it('reads the database URL and the replica URLs from files', () => {
    const config = loadConfig({
      DATABASE_URL_FILE: file('url', 'mysql://app:s3cret@primary:3306/calendar\n'),
      DATABASE_REPLICA_URLS_FILE: file('replicas', 'mysql://app:s3cret@r1:3306/calendar,mysql://app:s3cret@r2:3306/calendar\n'),
    });
    expect(config.database).toMatchObject({
      kind: 'mysql',
      url: 'mysql://app:s3cret@primary:3306/calendar',
      replicaUrls: ['mysql://app:s3cret@r1:3306/calendar', 'mysql://app:s3cret@r2:3306/calendar'],
    });
  });

  it('keeps the value exactly otherwise: only line breaks at the end go', () => {
    const config = loadConfig({ ADMIN_LOGIN: 'admin', ADMIN_PASSWORD_FILE: file('exact', 'line-1-secret\n\n') });
    expect(config.admin.password).toBe('line-1-secret');
    expect(() => loadConfig({ ADMIN_LOGIN: 'admin', ADMIN_PASSWORD_FILE: file('two-lines', 'first-line\nsecond-line\n') })).toThrow(
      /ADMIN_PASSWORD must be 8-128 characters without whitespace/,
    );
  });

  it.each(SECRET_VARIABLES.map((name) => [name]))('refuses %s given both as itself and as a file, in one line naming both', (name) => {
    const env = { [name]: 'given', [`${name}_FILE`]: file(`${name}-twice`, 'also given\n') };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(
      `Invalid configuration: ${name}_FILE is set together with ${name}: give the value one way, not both`,
    );
  });

  it('refuses a file that cannot be read, naming the variable and the path', () => {
    const missing = join(dir, 'nothing-here');
    let error: unknown;
    try {
      loadConfig({ REDIS_URL_FILE: missing });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe('REDIS_URL_FILE');
    expect((error as Error).message).toBe(`Invalid configuration: REDIS_URL_FILE names a file that cannot be read (ENOENT: ${missing})`);
  });

  it('treats an empty <NAME>_FILE as unset', () => {
    expect(loadConfig({ DATABASE_URL_FILE: '  ' }).database.kind).toBe('sqlite');
  });
});
