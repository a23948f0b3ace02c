import { readFileSync } from 'node:fs';

/** The compose file ships no secrets: each one is required from `.env`, with a message naming it. */
describe('docker-compose.yml', () => {
  const text = readFileSync('docker-compose.yml', 'utf8');
  // `NAME: value` lines of the services' environment blocks
  const settings = [...text.matchAll(/^\s+([A-Z_]+): (.+)$/gm)].map(([, name, value]) => [name, value] as const);

  it('requires every password, the database URL and the public URL, and defaults none of them', () => {
    const secrets = settings.filter(([name]) => /PASSWORD|DATABASE_URL|PUBLIC_URL/.test(name));
    expect(secrets.map(([name]) => name).sort()).toEqual([
      'ADMIN_PASSWORD',
      'DATABASE_URL',
      'MYSQL_PASSWORD',
      'MYSQL_ROOT_PASSWORD',
      'PUBLIC_URL',
    ]);
    for (const [name, value] of secrets) {
      expect({ name, requiredFromEnv: /\$\{[A-Z_]+:\?[^}]+\}/.test(value) }).toEqual({ name, requiredFromEnv: true });
    }
    expect(text).not.toMatch(/change-me|:-root|calendar:calendar@|-pcalendar/);
  });

  it('lists every required variable in .env.example', () => {
    const example = readFileSync('.env.example', 'utf8');
    const required = [...new Set([...text.matchAll(/\$\{([A-Z_]+):\?/g)].map(([, name]) => name))];
    expect(required.length).toBeGreaterThanOrEqual(4);
    for (const name of required) expect(example).toMatch(new RegExp(`^${name}=`, 'm'));
  });

  it("sizes MySQL's buffer pool from DB_BUFFER_POOL_SIZE (1G unless set), listed in .env.example", () => {
    expect(text.match(/--innodb-buffer-pool-size=\$\{DB_BUFFER_POOL_SIZE:-1G\}/g)).toHaveLength(1);
    expect(readFileSync('.env.example', 'utf8')).toMatch(/^DB_BUFFER_POOL_SIZE=1G$/m);
  });
});

/** The scaled-out recipe (docs/SCALING.md): the same rule for secrets, and the pieces it promises. */
describe('deploy/compose.yaml', () => {
  const text = readFileSync('deploy/compose.yaml', 'utf8');
  const settings = [...text.matchAll(/^\s+([A-Z_]+): (.+)$/gm)].map(([, name, value]) => [name, value] as const);

  it('requires every password and URL holding one from deploy/.env, and lists each in deploy/.env.example', () => {
    const secrets = settings.filter(([name]) => /PASSWORD|DATABASE_URL|DATABASE_REPLICA_URLS|PUBLIC_URL/.test(name));
    expect(new Set(secrets.map(([name]) => name))).toEqual(
      new Set([
        'DATABASE_URL',
        'DATABASE_REPLICA_URLS',
        'PUBLIC_URL',
        'ADMIN_PASSWORD',
        'MYSQL_PASSWORD',
        'MYSQL_ROOT_PASSWORD',
        'REPLICATION_PASSWORD',
      ]),
    );
    for (const [name, value] of secrets) {
      expect({ name, requiredFromEnv: /\$\{[A-Z_]+:\?[^}]+\}/.test(value) }).toEqual({ name, requiredFromEnv: true });
    }
    const example = readFileSync('deploy/.env.example', 'utf8');
    for (const name of new Set([...text.matchAll(/\$\{([A-Z_]+):\?/g)].map(([, name]) => name))) {
      expect(example).toMatch(new RegExp(`^${name}=`, 'm'));
    }
  });

  it("sizes both MySQL servers' buffer pools from DB_BUFFER_POOL_SIZE (1G unless set), listed in deploy/.env.example", () => {
    expect(text.match(/--innodb-buffer-pool-size=\$\{DB_BUFFER_POOL_SIZE:-1G\}/g)).toHaveLength(2);
    expect(readFileSync('deploy/.env.example', 'utf8')).toMatch(/^DB_BUFFER_POOL_SIZE=1G$/m);
  });

  it('runs a MySQL 8.4 primary and a GTID replica, Redis, the app replicas and HAProxy with health checks', () => {
    expect(text.match(/image: mysql:8\.4/g)).toHaveLength(2);
    expect(text.match(/--gtid-mode=ON/g)).toHaveLength(2);
    expect(readFileSync('deploy/mysql/replica-init.sh', 'utf8')).toMatch(/SOURCE_AUTO_POSITION = 1/);
    expect(text).toMatch(/image: redis:7/);
    expect(text).toMatch(/replicas: \$\{APP_REPLICAS:-2\}/);
    expect(readFileSync('deploy/haproxy.cfg', 'utf8')).toMatch(/option httpchk GET \/health\/ready/);
  });
});
