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
});
