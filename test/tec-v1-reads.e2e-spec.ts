import { fixtureSource, type FixtureSource } from './support/fixture-source.js';
import { importTec } from './support/import-sources.js';
import { ADMIN, basic, startTestApp, type TestApp } from './support/test-app.js';
import { ACKNOWLEDGEMENT, recordedBody, recordedHeaders, recordedRequests, type RecordedRequest } from './support/tec-v1-samples.js';

type Json = Record<string, any>;

const reads = recordedRequests().slice(
  0,
  recordedRequests().findIndex((entry) => entry.name === 'event-create-full-admin'),
);

describe('tec/v1 reads replayed', () => {
  let source: FixtureSource;
  let target: TestApp;
  beforeAll(async () => {
    source = await fixtureSource({ withWpV2: true });
    target = await startTestApp({ SITE_TIMEZONE: 'UTC' });
    await importTec(target, ['--from', source.url, '--user', 'admin', '--password', 'recorded-without-password']);
  }, 60_000);
  afterAll(async () => {
    await target?.close();
    await source?.close();
  });

  const send = (entry: RecordedRequest) => {
    const method = entry.method.toLowerCase() as 'get';
    let req = target.http()[method](entry.url_path_and_query);
    if (entry.auth === 'admin') req = req.set('Authorization', basic(ADMIN));
    if (entry.auth === 'bad-password') req = req.set('Authorization', basic({ login: ADMIN.login, password: 'wrong-password' }));
    if (entry.ack === 'sent') req = req.set('X-TEC-EEA', ACKNOWLEDGEMENT);
    if (entry.ack === 'wrong') req = req.set('X-TEC-EEA', 'yes');
    if (entry.body !== undefined) req = req.send(entry.body as object);
    return req;
  };

  it('explore', async () => {
    const out: string[] = [];
    for (const entry of reads) {
      const res = await send(entry);
      const expected = recordedBody(entry.name) as Json;
      const headers = recordedHeaders(entry.name);
      const mine = res.body as Json;
      let note = '';
      if (res.status !== entry.status) note += ` STATUS ${res.status} != ${entry.status}`;
      if (Array.isArray(expected) && Array.isArray(mine)) {
        const a = expected.map((x: Json) => x.id).join(',');
        const b = mine.map((x: Json) => x.id).join(',');
        if (a !== b) note += ` IDS mine=${b} ref=${a}`;
        for (const h of ['x-wp-total', 'x-wp-totalpages', 'link', 'allow'])
          if (headers[h] !== res.headers[h]) note += ` ${h}: mine=${res.headers[h]} ref=${headers[h]}`;
      } else if (expected && typeof expected === 'object' && 'code' in expected) {
        if (mine?.code !== expected.code) note += ` CODE mine=${mine?.code} ref=${expected.code}`;
      } else if (expected && typeof expected === 'object' && 'id' in expected) {
        for (const key of Object.keys(expected)) {
          if (JSON.stringify(expected[key]) !== JSON.stringify(mine?.[key]))
            note += `\n    ${key}: mine=${JSON.stringify(mine?.[key])?.slice(0, 300)} ref=${JSON.stringify(expected[key]).slice(0, 300)}`;
        }
      }
      if (note) out.push(`${entry.name}:${note}`);
    }
    console.log(out.join('\n'));
  }, 120_000);
});
