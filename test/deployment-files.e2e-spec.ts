import { readFileSync } from 'node:fs';
import { loadConfig } from '../src/config/app-config.js';

/** The app's environment of a compose file with `${NAME...}` substituted by `values`. */
function appEnvironment(text: string, values: Record<string, string>): Record<string, string> {
  const block =
    /DATABASE_HOST:[\s\S]*?(?=\n\S|\n\s*(?:ports|stop_grace_period|restart|deploy|command|depends_on|volumes):)/.exec(text)?.[0] ?? '';
  const env: Record<string, string> = {};
  for (const [, name, raw] of block.matchAll(/^\s*([A-Z_]+): (.+)$/gm)) {
    const unquoted = raw.replace(/^'(.*)'$/, '$1');
    env[name] = unquoted.replace(
      /\$\{([A-Z_]+)(?::-([^}]*))?[^}]*\}/g,
      (_, variable: string, fallback?: string) => values[variable] ?? fallback ?? '',
    );
  }
  return env;
}

/** What every compose file promises about its services' lifecycle and the app's database connection. */
function lifecycleChecks(file: string, exposedService: string) {
  const text = readFileSync(file, 'utf8');
  const service = (name: string) => new RegExp(`\\n  ${name}:\\n[\\s\\S]*?(?=\\n  [a-z-]+:\\n|\\nvolumes:|$)`).exec(text)?.[0] ?? '';

  it('hands the app the database in parts, so a generated password with / # ? @ reaches MySQL unchanged', () => {
    expect(text).not.toMatch(/DATABASE_URL|DATABASE_REPLICA_URLS|mysql:\/\//);
    const password = 'a/b#c?d@e%f+g=';
    const database = loadConfig({
      ...appEnvironment(text, { DB_PASSWORD: password, PUBLIC_URL: 'http://x.test', ADMIN_PASSWORD: 'admin-password-1' }),
    }).database as { kind: string; url: string; replicaUrls: string[] };
    expect(database.kind).toBe('mysql');
    for (const url of [database.url, ...database.replicaUrls]) {
      const parsed = new URL(url);
      expect([decodeURIComponent(parsed.username), decodeURIComponent(parsed.password), parsed.port, parsed.pathname]).toEqual([
        'calendar',
        password,
        '3306',
        '/calendar',
      ]);
    }
  });

  it('restarts every long-running service and gives the app longer to stop than SHUTDOWN_GRACE_MS', () => {
    const grace = Number(/SHUTDOWN_GRACE_MS: '(\d+)'/.exec(text)?.[1]);
    expect(grace).toBeGreaterThan(0);
    const app = service('app');
    const stopSeconds = Number(/stop_grace_period: (\d+)s/.exec(app)?.[1]);
    expect(stopSeconds * 1000).toBeGreaterThanOrEqual(grace + 5000);
    const services = text.slice(text.indexOf('\nservices:'), text.indexOf('\nvolumes:'));
    for (const name of [...services.matchAll(/^ {2}([a-z-]+):\n/gm)].map(([, name]) => name)) {
      if (name === 'migrate') expect(service(name)).toMatch(/restart: 'no'/);
      else expect({ name, restart: /restart: unless-stopped/.test(service(name)) }).toEqual({ name, restart: true });
    }
  });

  it('publishes its port on loopback unless BIND_ADDRESS says otherwise', () => {
    const ports = [...text.matchAll(/^\s+- '([^']*:\d+)'$/gm)].map(([, mapping]) => mapping);
    expect(ports).toHaveLength(1);
    expect(ports[0]).toMatch(/^\$\{BIND_ADDRESS:-127\.0\.0\.1\}:\$\{[A-Z_]+:-\d+\}:\d+$/);
    expect(service(exposedService)).toContain(ports[0]);
  });
}

/** The compose file ships no secrets: each one is required from `.env`, with a message naming it. */
describe('docker-compose.yml', () => {
  const text = readFileSync('docker-compose.yml', 'utf8');
  // `NAME: value` lines of the services' environment blocks
  const settings = [...text.matchAll(/^\s+([A-Z_]+): (.+)$/gm)].map(([, name, value]) => [name, value] as const);

  it('requires every password, the database URL and the public URL, and defaults none of them', () => {
    const secrets = settings.filter(([name]) => /PASSWORD|DATABASE_URL|PUBLIC_URL/.test(name));
    expect(secrets.map(([name]) => name)).not.toContain('DATABASE_URL');
    expect(secrets.map(([name]) => name).sort()).toEqual([
      'ADMIN_PASSWORD',
      'DATABASE_PASSWORD',
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

  lifecycleChecks('docker-compose.yml', 'app');
});

/** The scaled-out recipe (docs/SCALING.md): the same rule for secrets, and the pieces it promises. */
describe('deploy/compose.yaml', () => {
  const text = readFileSync('deploy/compose.yaml', 'utf8');
  const settings = [...text.matchAll(/^\s+([A-Z_]+): (.+)$/gm)].map(([, name, value]) => [name, value] as const);

  it('requires every password and URL holding one from deploy/.env, and lists each in deploy/.env.example', () => {
    const secrets = settings.filter(([name]) => /PASSWORD|DATABASE_URL|DATABASE_REPLICA_URLS|PUBLIC_URL/.test(name));
    expect(new Set(secrets.map(([name]) => name))).toEqual(
      new Set(['DATABASE_PASSWORD', 'PUBLIC_URL', 'ADMIN_PASSWORD', 'MYSQL_PASSWORD', 'MYSQL_ROOT_PASSWORD', 'REPLICATION_PASSWORD']),
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

  it("puts nginx in front of HAProxy with the shipped cache template, its lifetime the app's s-maxage", () => {
    const nginx = /\n {2}nginx:\n[\s\S]*?(?=\n {2}[a-z-]+:\n|\nvolumes:)/.exec(text)?.[0] ?? '';
    expect(nginx).toContain('./nginx/calendar.conf.template:/etc/nginx/templates/default.conf.template:ro');
    expect(nginx).toContain('EDGE_UPSTREAM: haproxy:8080');
    // every variable of the template gets a value, and the image substitutes nothing else
    const used = new Set(
      [...readFileSync('deploy/nginx/calendar.conf.template', 'utf8').matchAll(/\$\{(EDGE_[A-Z_]+)\}/g)].map(([, name]) => name),
    );
    const given = new Set([...nginx.matchAll(/^\s+(EDGE_[A-Z_]+): /gm)].map(([, name]) => name));
    expect(given).toEqual(used);
    expect(nginx).toContain('NGINX_ENVSUBST_FILTER: ^EDGE_');
    const env = loadConfig(appEnvironment(text, { DB_PASSWORD: 'x', PUBLIC_URL: 'http://x.test', ADMIN_PASSWORD: 'admin-password-1' }));
    expect(env.http.cacheSharedMaxAgeSeconds).toBe(5);
    expect(env.limits.trustProxy).toBe(2);
    expect(
      loadConfig(
        appEnvironment(text, {
          EDGE_CACHE_SECONDS: '30',
          DB_PASSWORD: 'x',
          PUBLIC_URL: 'http://x.test',
          ADMIN_PASSWORD: 'admin-password-1',
        }),
      ).http.cacheSharedMaxAgeSeconds,
    ).toBe(30);
    expect(readFileSync('deploy/.env.example', 'utf8')).toMatch(/^EDGE_CACHE_SECONDS=5$/m);
  });

  lifecycleChecks('deploy/compose.yaml', 'nginx');
});
