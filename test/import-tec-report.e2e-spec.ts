import { fixtureSource, type FixtureSource } from './support/fixture-source.js';
import { fakeServer, importTec } from './support/import-sources.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

/**
 * What `import:tec` tells the operator, against the recorded answers of the reference plugin:
 * the records a dry run would change, run numbers, the source's default page size, and errors
 * (once, as plain text, naming what to do).
 */
describe('import:tec report', () => {
  let source: FixtureSource;
  let target: TestApp;
  let dryRun: Awaited<ReturnType<typeof importTec>>;
  let realRun: Awaited<ReturnType<typeof importTec>>;
  const CREDENTIALS = ['--user', 'admin', '--password', 'recorded-without-password'];

  beforeAll(async () => {
    source = await fixtureSource({ withWpV2: true });
    target = await startTestApp({ SITE_TIMEZONE: 'UTC' });
    // term ids 1 and 2 are taken here: the dry run has to tell the id source category 2 would get instead
    for (const name of ['Local category', 'Another local category'])
      await target.http().post(`${API}/categories`).set('Authorization', basic(ADMIN)).send({ name });
    dryRun = await importTec(target, ['--from', source.url, ...CREDENTIALS, '--dry-run']);
    realRun = await importTec(target, ['--from', source.url, ...CREDENTIALS]);
  }, 90_000);
  afterAll(async () => {
    await target.close();
    await source.close();
  });

  it('a dry run names each record it would create, with the id it would get here, and no run number', () => {
    expect({ code: dryRun.code, error: dryRun.error }).toEqual({ code: 0, error: null });
    const listed = dryRun.lines.slice(dryRun.lines.indexOf('Would be created, updated, trashed or deleted (source id -> id here):') + 1);
    expect(listed).toEqual(
      expect.arrayContaining([
        '  would be created event 16 -> 16 "Jazz & Blues Night"',
        expect.stringMatching(/^ {2}would be created venue \d+ -> \d+ "/),
      ]),
    );
    expect(listed.filter((line) => line.startsWith('  would be created event '))).toHaveLength(42);
    // no placeholder ids: the renumbered category gets the id a real run would give it
    expect(dryRun.lines.join('\n')).not.toMatch(/-> -\d/);
    expect(dryRun.lines).toContain('Would be renumbered (source id -> id here):');
    expect(dryRun.lines.some((line) => /^ {2}category 2 -> \d+$/.test(line))).toBe(true);
    expect(dryRun.lines.some((line) => /^Dry run of .* finished in /.test(line))).toBe(true);
    expect(dryRun.lines.join('\n')).not.toMatch(/\brun \d+|Run \d+/);
  });

  it('the renumbering a dry run announced is the one the real run makes, and a real run lists no records', () => {
    const announced = dryRun.lines.find((line) => /^ {2}category 2 -> \d+$/.test(line));
    expect(realRun.lines).toContain(announced);
    expect(realRun.lines.some((line) => line.includes('would be'))).toBe(false);
    expect(realRun.lines.some((line) => /^Import \(run \d+\) of /.test(line))).toBe(true);
  });

  it('says how to match the source default page size (10 at the reference, 6 here)', () => {
    expect(realRun.lines).toContain(
      "  the source's default page size (per_page when a list is asked without it) is 10, here it is 6: set DEFAULT_PER_PAGE=10 to match, so that paged clients see the same pages",
    );
  });

  it('says nothing about the page size when it already matches', async () => {
    const matching = await startTestApp({ SITE_TIMEZONE: 'UTC', DEFAULT_PER_PAGE: '10' });
    try {
      const run = await importTec(matching, ['--from', source.url, ...CREDENTIALS, '--dry-run']);
      expect(run.code).toBe(0);
      expect(run.lines.some((line) => line.includes('DEFAULT_PER_PAGE'))).toBe(false);
    } finally {
      await matching.close();
    }
  }, 60_000);

  it('--user without a password names TEC_PASSWORD', async () => {
    const saved = process.env.TEC_PASSWORD;
    delete process.env.TEC_PASSWORD;
    try {
      const run = await importTec(target, ['--from', source.url, '--user', 'admin']);
      expect(run.code).toBe(1);
      expect(run.error).toBe('--user needs its application password: give --password or set the environment variable TEC_PASSWORD');
    } finally {
      if (saved !== undefined) process.env.TEC_PASSWORD = saved;
    }
  });

  it('prints a fatal error once, as plain text', async () => {
    const refusing = await fakeServer(() => ({
      status: 401,
      headers: { 'content-type': 'application/json; charset=UTF-8' },
      body: JSON.stringify({
        code: 'incorrect_password',
        message:
          '<strong>Error:</strong> The password you entered for the username <strong>admin</strong> is incorrect. <a href="/wp-login.php?action=lostpassword">Lost your password?</a>',
        data: null,
      }),
    }));
    try {
      const run = await importTec(target, ['--from', refusing.url, ...CREDENTIALS]);
      expect(run.code).toBe(1);
      expect(run.error).toMatch(
        /refused the request \(401 incorrect_password: Error: The password you entered for the username admin is incorrect\. Lost your password\?\): check --user/,
      );
      expect(run.error).not.toMatch(/[<>]/);
      // the summary does not repeat it: standard error has the one line
      expect(run.lines.some((line) => line.includes('incorrect'))).toBe(false);
    } finally {
      await refusing.close();
    }
  });
});
