import { DateTime } from 'luxon';
import { SeriesHorizonJob } from '../src/events/series/series-horizon.job.js';
import { ADMIN_AUTH } from './support/events.js';
import { API, startTestApp, type TestApp } from './support/test-app.js';

describe('recurring events: the horizon moves with time (SERIES_HORIZON_DAYS=10)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ SERIES_HORIZON_DAYS: '10' });
  });
  afterAll(() => t.close());

  const starts = async (mainId: number) =>
    (
      (await t.http().get(`${API}/series/${mainId}/occurrences?per_page=50`).set('Authorization', ADMIN_AUTH)).body.events as Array<{
        id: number;
        start_date: string;
      }>
    ).map((event) => event.start_date.slice(0, 10));

  it('generates an open-ended rule up to the horizon, and later further, once, however many passes run', async () => {
    const today = DateTime.utc().startOf('day');
    const res = await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', ADMIN_AUTH)
      .send({
        title: 'Daily Standup',
        timezone: 'UTC',
        start_date: `${today.toFormat('yyyy-MM-dd')} 00:00:00`,
        end_date: `${today.toFormat('yyyy-MM-dd')} 00:15:00`,
        recurrence: ['RRULE:FREQ=DAILY'],
      });
    expect(res.status).toBe(201);
    const first = await starts(res.body.id);
    // today through 10 days from now (the start is past, so the horizon counts from now)
    expect(first).toEqual(Array.from({ length: 11 }, (_, i) => today.plus({ days: i }).toFormat('yyyy-MM-dd')));

    // a second server process on the same database runs its pass at the same time
    const other = await startTestApp({ SERIES_HORIZON_DAYS: '10' }, { sharing: t });
    try {
      const later = new Date(Date.now() + 5 * 86_400_000);
      const added = await Promise.all([t.app.get(SeriesHorizonJob).extendDue(later), other.app.get(SeriesHorizonJob).extendDue(later)]);
      expect(added[0] + added[1]).toBe(5);
      expect(await t.app.get(SeriesHorizonJob).extendDue(later)).toBe(0);
    } finally {
      await other.close();
    }
    const extended = await starts(res.body.id);
    expect(extended).toEqual(Array.from({ length: 16 }, (_, i) => today.plus({ days: i }).toFormat('yyyy-MM-dd')));
    expect((await t.http().get(`${API}/series/${res.body.id}`)).body.occurrences_total).toBe(16);
  });

  it('leaves finished series alone', async () => {
    const res = await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', ADMIN_AUTH)
      .send({
        title: 'Short Course',
        timezone: 'UTC',
        start_date: 'tomorrow 9am',
        end_date: 'tomorrow 10am',
        recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
      });
    expect(await t.app.get(SeriesHorizonJob).extendDue(new Date(Date.now() + 30 * 86_400_000))).toBeGreaterThanOrEqual(0);
    expect(await starts(res.body.id)).toHaveLength(3);
  });
});
