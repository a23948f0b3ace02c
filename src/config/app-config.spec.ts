import { ConfigError, loadConfig } from './app-config.js';

describe('loadConfig', () => {
  it('applies the defaults of spec §2.1', () => {
    const config = loadConfig({});
    expect(config.http.port).toBe(3000);
    expect(config.http.publicUrl).toBe('http://localhost:3000');
    expect(config.api).toMatchObject({
      root: '/wp-json',
      vendor: 'tribe',
      namespace: 'tribe/events/v1',
      editions: ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt-br', 'pl', 'sv', 'ja', 'zh-cn', 'ko'],
      contentLanguage: 'en',
    });
    expect(config.site).toEqual({ timezone: 'UTC', name: 'Events', description: '' });
    expect(config.lists).toEqual({ defaultPerPage: 6, maxPerPage: 50 });
    expect(config.http.maxBodyBytes).toBe(1048576);
    expect(config.http.corsOrigins).toBe('*');
    expect(config.http.cacheMaxAgeSeconds).toBe(0);
    expect(config.http.cacheSharedMaxAgeSeconds).toBe(0);
    expect(config.database).toEqual({ kind: 'sqlite', path: 'data/calendar.sqlite', busyTimeoutMs: 5000 });
    expect(config.limits).toMatchObject({
      loginFailures: 10,
      loginAddressFailures: 100,
      loginAccountFailures: 50,
      loginWindowSeconds: 900,
    });
    expect(config.sources).toEqual({ runsKept: 50 });
    expect(loadConfig({ SOURCE_RUNS_KEPT: '200' }).sources).toEqual({ runsKept: 200 });
  });

  it('derives the global id base and public path from PUBLIC_URL', () => {
    const { http } = loadConfig({ PUBLIC_URL: 'https://calendar.example.org:8443/cal/' });
    expect(http.publicUrl).toBe('https://calendar.example.org:8443/cal');
    expect(http.publicPath).toBe('/cal');
    expect(http.globalIdBase).toBe('calendar.example.org/cal');
  });

  it('reads the content language and the fallback chain of each edition', () => {
    const { api } = loadConfig({ CONTENT_LANGUAGE: 'fr', CONTENT_FALLBACKS: 'pt-br:es:fr, sv:de' });
    expect(api.contentLanguage).toBe('fr');
    expect(api.contentChains['pt-br']).toEqual(['pt-br', 'es', 'fr']);
    expect(api.contentChains.sv).toEqual(['sv', 'de', 'fr']);
    expect(api.contentChains.fr).toEqual(['fr']);
    expect(api.contentChains.en).toEqual(['en', 'fr']);
    expect(loadConfig({}).api.contentLanguage).toBe('en');
  });

  it('normalises the site time zone', () => {
    expect(loadConfig({ SITE_TIMEZONE: 'america/chicago' }).site.timezone).toBe('America/Chicago');
    expect(loadConfig({ SITE_TIMEZONE: 'UTC+05:30' }).site.timezone).toBe('UTC+5.5');
  });

  it.each([
    ['PORT', 'eighty'],
    ['PUBLIC_URL', 'ftp://x'],
    ['API_ROOT', 'wp-json'],
    ['API_ROOT', '/wp-json/'],
    ['API_VENDOR', 'Tribe'],
    ['EDITIONS', 'en,xx-long'],
    ['SITE_TIMEZONE', 'Mars/Olympus'],
    ['DEFAULT_PER_PAGE', '0'],
    ['MAX_PER_PAGE', '3'],
    ['CORS_ORIGINS', 'not a url'],
    ['DEFAULT_CURRENCY_POSITION', 'middle'],
    ['COST_DECIMAL_SEPARATOR', ';'],
    ['GEOFENCE_RADIUS_KM', '-1'],
    ['EVENT_CUSTOM_FIELDS', '[{"key":"bad key","label":"x"}]'],
    ['DATABASE_URL', 'postgres://x/y'],
    ['LOG_LEVEL', 'loud'],
    ['HTTP_CACHE_MAX_AGE', '-1'],
    ['HTTP_CACHE_MAX_AGE', '1.5'],
    ['HTTP_CACHE_MAX_AGE', '31536001'],
    ['HTTP_CACHE_SHARED_MAX_AGE', '-1'],
    ['HTTP_CACHE_SHARED_MAX_AGE', '5s'],
    ['LOGIN_FAILURE_ADDRESS_LIMIT', '0'],
    ['LOGIN_FAILURE_ACCOUNT_LIMIT', 'many'],
    ['LOGIN_FAILURE_ACCOUNT_LIMIT', '5'],
    ['ICS_MAX_EVENTS', '10001'],
    ['ICS_WAITING_MAX', '-1'],
    ['ICS_WAITING_MAX', '1001'],
    ['SOURCE_RUNS_KEPT', '0'],
    ['SOURCE_RUNS_KEPT', 'all'],
    ['CONTENT_LANGUAGE', 'xx'],
    ['CONTENT_FALLBACKS', 'pt-br'],
    ['CONTENT_FALLBACKS', 'pt-br:pt'],
    ['CONTENT_FALLBACKS', 'de:fr,de:es'],
    ['CONTENT_FALLBACKS', 'de:de'],
  ])('refuses %s=%s with a message naming the variable', (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [variable]: value });
    } catch (error) {
      expect((error as ConfigError).variable).toBe(variable);
      expect((error as Error).message).toContain(variable);
    }
  });

  it('needs both ADMIN_ variables and a valid password', () => {
    expect(() => loadConfig({ ADMIN_LOGIN: 'root' })).toThrow(/ADMIN_PASSWORD/);
    expect(() => loadConfig({ ADMIN_PASSWORD: 'long-enough' })).toThrow(/ADMIN_LOGIN/);
    expect(() => loadConfig({ ADMIN_LOGIN: 'root', ADMIN_PASSWORD: 'short' })).toThrow(/ADMIN_PASSWORD/);
    expect(loadConfig({ ADMIN_LOGIN: 'root', ADMIN_PASSWORD: 'long-enough' }).admin).toEqual({ login: 'root', password: 'long-enough' });
  });

  it('reads custom field definitions and a MySQL URL', () => {
    const config = loadConfig({
      EVENT_CUSTOM_FIELDS: '[{"key":"_ecp_custom_2","label":"Dress code"}]',
      DATABASE_URL: 'mariadb://u:p@db:3306/calendar',
    });
    expect(config.events.customFields).toEqual([{ key: '_ecp_custom_2', label: 'Dress code' }]);
    expect(config.database).toMatchObject({ kind: 'mysql', url: 'mariadb://u:p@db:3306/calendar' });
  });

  it('bounds every wait on the database, with defaults of a few seconds', () => {
    const url = 'mysql://u@db:3306/calendar';
    expect(loadConfig({ DATABASE_URL: url }).database).toEqual({
      kind: 'mysql',
      url,
      poolSize: 10,
      connectTimeoutMs: 2000,
      queryTimeoutMs: 3000,
      acquireTimeoutMs: 3000,
      probeIntervalMs: 1000,
      connectAttempts: 5,
      connectRetryDelayMs: 2000,
      replicaUrls: [],
      replicaMaxLagMs: 2000,
      replicaWaitMs: 500,
    });
    expect(
      loadConfig({ DATABASE_URL: url, DB_QUERY_TIMEOUT_MS: '500', DB_ACQUIRE_TIMEOUT_MS: '700', DB_PROBE_INTERVAL_MS: '200' }).database,
    ).toMatchObject({
      queryTimeoutMs: 500,
      acquireTimeoutMs: 700,
      probeIntervalMs: 200,
    });
    expect(() => loadConfig({ DATABASE_URL: url, DB_QUERY_TIMEOUT_MS: '0' })).toThrow(/DB_QUERY_TIMEOUT_MS/);
    expect(() => loadConfig({ DATABASE_URL: url, DB_ACQUIRE_TIMEOUT_MS: 'soon' })).toThrow(/DB_ACQUIRE_TIMEOUT_MS/);
    expect(() => loadConfig({ DATABASE_URL: url, DB_PROBE_INTERVAL_MS: '10' })).toThrow(/DB_PROBE_INTERVAL_MS/);
    expect(loadConfig({ DATABASE_URL: url, DB_CONNECT_ATTEMPTS: '1', DB_CONNECT_RETRY_DELAY_MS: '0' }).database).toMatchObject({
      connectAttempts: 1,
      connectRetryDelayMs: 0,
    });
    expect(() => loadConfig({ DATABASE_URL: url, DB_CONNECT_ATTEMPTS: '0' })).toThrow(/DB_CONNECT_ATTEMPTS/);
    expect(() => loadConfig({ DATABASE_URL: url, DB_CONNECT_RETRY_DELAY_MS: 'later' })).toThrow(/DB_CONNECT_RETRY_DELAY_MS/);
  });

  it('reads replicas of a MySQL/MariaDB primary and refuses them without one', () => {
    const url = 'mysql://u@primary:3306/calendar';
    const replicas = 'mysql://u@replica-1:3306/calendar, mysql://u@replica-2:3306/calendar';
    expect(
      loadConfig({ DATABASE_URL: url, DATABASE_REPLICA_URLS: replicas, REPLICA_MAX_LAG_MS: '800', REPLICA_WAIT_MS: '0' }).database,
    ).toMatchObject({
      replicaUrls: ['mysql://u@replica-1:3306/calendar', 'mysql://u@replica-2:3306/calendar'],
      replicaMaxLagMs: 800,
      replicaWaitMs: 0,
    });
    expect(() => loadConfig({ DATABASE_REPLICA_URLS: 'mysql://u@replica-1:3306/calendar' })).toThrow(
      'Invalid configuration: DATABASE_REPLICA_URLS needs a MySQL/MariaDB DATABASE_URL (the embedded SQLite database has no replicas)',
    );
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_REPLICA_URLS: 'replica-1:3306' })).toThrow(/DATABASE_REPLICA_URLS/);
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_REPLICA_URLS: `${url},mysql://u@r:3306/calendar` })).toThrow(
      /DATABASE_REPLICA_URLS must not list the primary/,
    );
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_REPLICA_URLS: 'mysql://u@r:3306/c,mysql://u@r:3306/c' })).toThrow(
      /DATABASE_REPLICA_URLS/,
    );
    expect(() => loadConfig({ DATABASE_URL: url, REPLICA_MAX_LAG_MS: '50' })).toThrow(/REPLICA_MAX_LAG_MS/);
    expect(() => loadConfig({ DATABASE_URL: url, REPLICA_WAIT_MS: '-1' })).toThrow(/REPLICA_WAIT_MS/);
  });

  it('builds the database URL from its parts, any password working', () => {
    const parts = { DATABASE_HOST: 'db', DATABASE_USER: 'calendar', DATABASE_PASSWORD: 'a/b#c?d@e%f:g', DATABASE_NAME: 'calendar' };
    const database = loadConfig(parts).database;
    expect(database).toMatchObject({ kind: 'mysql', url: 'mysql://calendar:a%2Fb%23c%3Fd%40e%25f%3Ag@db:3306/calendar', replicaUrls: [] });
    const url = new URL((database as { url: string }).url);
    expect([url.hostname, url.port, decodeURIComponent(url.password), url.pathname]).toEqual(['db', '3306', 'a/b#c?d@e%f:g', '/calendar']);
    expect(loadConfig({ ...parts, DATABASE_PORT: '3307', DATABASE_PASSWORD: '' }).database).toMatchObject({
      url: 'mysql://calendar@db:3307/calendar',
    });
    expect(loadConfig({ ...parts, DATABASE_REPLICA_HOSTS: 'replica-1, replica-2:3307' }).database).toMatchObject({
      replicaUrls: [
        'mysql://calendar:a%2Fb%23c%3Fd%40e%25f%3Ag@replica-1:3306/calendar',
        'mysql://calendar:a%2Fb%23c%3Fd%40e%25f%3Ag@replica-2:3307/calendar',
      ],
    });
  });

  it('refuses parts that are missing, malformed or given beside DATABASE_URL, in one line naming the variable', () => {
    const parts = { DATABASE_HOST: 'db', DATABASE_USER: 'calendar', DATABASE_PASSWORD: 'secret', DATABASE_NAME: 'calendar' };
    expect(() => loadConfig({ ...parts, DATABASE_URL: 'mysql://u@db/calendar' })).toThrow(
      'Invalid configuration: DATABASE_URL is set together with DATABASE_HOST, DATABASE_USER, DATABASE_PASSWORD, DATABASE_NAME: give the database either as DATABASE_URL or in parts, not both',
    );
    expect(() => loadConfig({ ...parts, DATABASE_NAME: undefined })).toThrow(/^Invalid configuration: DATABASE_NAME is required/);
    expect(() => loadConfig({ DATABASE_PASSWORD: 'secret' })).toThrow(/^Invalid configuration: DATABASE_HOST is required/);
    expect(() => loadConfig({ ...parts, DATABASE_HOST: 'db:3306' })).toThrow(/^Invalid configuration: DATABASE_HOST must be/);
    expect(() => loadConfig({ ...parts, DATABASE_PORT: '70000' })).toThrow(/^Invalid configuration: DATABASE_PORT/);
    expect(() => loadConfig({ ...parts, DATABASE_REPLICA_HOSTS: 'r/1' })).toThrow(/^Invalid configuration: DATABASE_REPLICA_HOSTS/);
    expect(() => loadConfig({ ...parts, DATABASE_REPLICA_HOSTS: 'r1', DATABASE_REPLICA_URLS: 'mysql://u@r1:3306/calendar' })).toThrow(
      /^Invalid configuration: DATABASE_REPLICA_HOSTS is set together with DATABASE_REPLICA_URLS/,
    );
  });

  it.each([
    'mysql://u:pa/ss#x@db/calendar',
    'mysql://u:pa#ss@db:3306/calendar',
    'mysql://u:p@ss@db:3306/calendar',
    'mysql://u:p?ss@db:3306/calendar',
    'mysql://u:%zz@db:3306/calendar',
    'mysql://u@db:3306/',
    'mysql://u@:3306/calendar',
  ])('refuses the unparsable DATABASE_URL %s at once, in one line', (url) => {
    let message = '';
    try {
      loadConfig({ DATABASE_URL: url });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/^Invalid configuration: DATABASE_URL must look like mysql:\/\/user:password@host:3306\/database/);
    expect(message).not.toContain('\n');
  });

  it('accepts percent-encoded passwords, IPv6 hosts and options in DATABASE_URL', () => {
    for (const url of ['mysql://u:a%2Fb%23c@db:3306/calendar', 'mariadb://u@[::1]:3306/calendar', 'mysql://u@db/calendar?ssl=true']) {
      expect(loadConfig({ DATABASE_URL: url }).database).toMatchObject({ kind: 'mysql', url });
    }
  });

  it('reads which non-public addresses outbound requests may reach, refusing all by default', () => {
    expect(loadConfig({}).outbound).toEqual({ allowAll: false, allow: [] });
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'true' }).outbound).toEqual({ allowAll: true, allow: [] });
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).outbound).toEqual({ allowAll: true, allow: [] });
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'false', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).outbound.allowAll).toBe(false);
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: '10.1.0.0/16, 127.0.0.1:8080,[fd00::/8]:443,::1' }).outbound.allow).toEqual([
      { network: '10.1.0.0', prefix: 16, family: 4, port: null },
      { network: '127.0.0.1', prefix: 32, family: 4, port: 8080 },
      { network: 'fd00::', prefix: 8, family: 6, port: 443 },
      { network: '::1', prefix: 128, family: 6, port: null },
    ]);
    for (const value of [
      'maybe',
      '10.0.0.0/33',
      '10.0.0.300',
      'example.org',
      '127.0.0.1:0',
      '127.0.0.1:70000',
      '[::1]',
      '10.0.0.0/8/8',
      '2',
    ]) {
      expect(() => loadConfig({ OUTBOUND_ALLOW_PRIVATE: value })).toThrow(
        /^Invalid configuration: OUTBOUND_ALLOW_PRIVATE must be true, false or a/,
      );
    }
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: '10.0.0.0/8' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false/,
    );
  });
});
