import { SourceScheduler } from '../src/sources/source-scheduler.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';
import { calendar, startFeedServer, vevent, type FeedServer } from './support/feed-server.js';

const admin = { Authorization: basic(ADMIN) };

describe('calendar sources: the schedule, shared by two processes', () => {
  let first: TestApp;
  let second: TestApp;
  let feeds: FeedServer;

  beforeAll(async () => {
    feeds = await startFeedServer();
    first = await startTestApp();
    second = await startTestApp({}, { sharing: first });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
    await feeds.close();
  });

  it('runs a due source once, whichever process looks first, and not again before its refresh', async () => {
    feeds.serve('/due.ics', calendar(vevent('UID:due-1', 'SUMMARY:Due event', 'DTSTART:20270801T100000Z', 'DURATION:PT1H')));
    const created = await first
      .http()
      .post(`${API}/sources`)
      .set(admin)
      .send({ url: feeds.url('/due.ics'), refresh_minutes: 60, paused: true });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    // unpaused: due now; both processes look at the same moment, several times
    await first.http().patch(`${API}/sources/${id}`).set(admin).send({ paused: false });
    const schedulers = [first.app.get(SourceScheduler), second.app.get(SourceScheduler)];
    await Promise.all([...schedulers, ...schedulers].map((scheduler) => scheduler.wake()));
    await Promise.all(schedulers.map((scheduler) => scheduler.wake()));
    const runs = (await second.http().get(`${API}/sources/${id}/runs`).set(admin)).body.runs as Array<Record<string, any>>;
    expect(runs.map((run) => [run.started_by, run.status])).toEqual([['schedule', 'completed']]);
    expect(feeds.requests.filter((request) => request.path === '/due.ics').length).toBe(1);
    const source = (await first.http().get(`${API}/sources/${id}`).set(admin)).body;
    expect(Date.parse(`${source.next_run_utc}Z`) - Date.now()).toBeGreaterThan(55 * 60_000);
    const events = (await first.http().get(`${API}/events?start_date=2027-08-01&end_date=2027-08-02`).set(admin)).body.events;
    expect(events.map((event: { title: string }) => event.title)).toEqual(['Due event']);
  });

  it('leaves a paused source alone', async () => {
    feeds.serve('/paused.ics', calendar(vevent('UID:paused-1', 'SUMMARY:Paused event', 'DTSTART:20270901T100000Z')));
    const created = await first
      .http()
      .post(`${API}/sources`)
      .set(admin)
      .send({ url: feeds.url('/paused.ics'), paused: true });
    await Promise.all([first.app.get(SourceScheduler).wake(), second.app.get(SourceScheduler).wake()]);
    expect((await first.http().get(`${API}/sources/${created.body.id}/runs`).set(admin)).body.runs).toEqual([]);
  });
});
