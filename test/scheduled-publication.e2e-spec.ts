import { jest } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { NEXT_SCHEDULED_SQL, ScheduledPublication } from '../src/items/scheduled-publication.js';
import { WebhookDispatcher } from '../src/webhooks/webhook-dispatcher.js';
import { eventBody, eventClient } from './support/events.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

const admin = basic(ADMIN);
const FAST = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', CHANGES_POLL_INTERVAL_MS: '100', WEBHOOK_TIMEOUT_MS: '2000' };

/** A publication time `ms` from now, as `date_utc` (whole seconds, rounded up). */
const utcIn = (ms: number) => new Date(Math.ceil((Date.now() + ms) / 1000) * 1000).toISOString().slice(0, 19).replace('T', ' ');

describe('scheduled publication without readers (spec §5.3)', () => {
  let t: TestApp;
  let rx: Receiver;
  const dataSource = () => t.app.get<DataSource>(getDataSourceToken());
  const subscribe = async (path: string, events: string[]) => {
    const res = await t
      .http()
      .post(`${API}/webhooks`)
      .set('Authorization', admin)
      .send({ url: rx.url(path), events });
    expect(res.status).toBe(201);
    return res.body as { id: number };
  };
  const published = (path: string, kind: string, id: number) =>
    rx.received.filter((entry) => entry.path === path && entry.json.type === `${kind}.published` && entry.json.data.id === id);
  const changesOf = async (kind: string, id: number) =>
    (await dataSource().query('SELECT action FROM changes WHERE kind = ? AND record_id = ? ORDER BY id', [kind, id])).map(
      (row: { action: string }) => row.action,
    );

  beforeAll(async () => {
    t = await startTestApp(FAST);
    rx = await startReceiver();
  });
  afterAll(async () => {
    await t.close();
    await rx.close();
  });

  it('publishes scheduled events and venues on time with nobody reading: webhooks and the change feed report them', async () => {
    await subscribe('/alone', ['event.published']);
    await subscribe('/venues', ['venue.*']);
    const cursor = (await t.http().get(`${API}/changes?since=now`).set('Authorization', admin)).body.next_cursor as string;
    const event = await eventClient(t).make(eventBody({ title: 'On time', status: 'future', date_utc: utcIn(2000) }));
    expect(event.status).toBe('future');
    const venue = await t
      .http()
      .post(`${API}/venues`)
      .set('Authorization', admin)
      .send({ venue: 'Opening hall', status: 'future', date_utc: utcIn(2000) });
    expect(venue.status).toBe(201);
    expect(venue.body.status).toBe('future');

    // no read of events or venues: the publication alone makes the delivery and the changes
    await rx.waitFor(() => published('/alone', 'event', event.id).length === 1, 15000, 'event.published');
    // a venue has no `published` type (docs/API.md): it is updated, and its subscribers told so
    const venueUpdates = () =>
      rx.received.filter(
        (entry) => entry.path === '/venues' && entry.json.type === 'venue.updated' && entry.json.data.id === venue.body.id,
      );
    await rx.waitFor(() => venueUpdates().length === 1, 15000, 'venue.updated');
    expect(venueUpdates()[0].json.data.status).toBe('publish');
    expect(rx.received.filter((entry) => entry.path === '/venues').map((entry) => entry.json.type)).toEqual([
      'venue.created',
      'venue.updated',
    ]);
    const delivered = published('/alone', 'event', event.id)[0];
    expect(delivered.json.data.status).toBe('publish');
    expect(delivered.at).toBeLessThan(new Date(`${event.date_utc.replace(' ', 'T')}Z`).getTime() + 5000);
    expect(await changesOf('event', event.id)).toEqual(['created', 'published']);
    expect(await changesOf('venue', venue.body.id)).toEqual(['created', 'updated']);

    const feed = await t
      .http()
      .get(`${API}/changes?since=${encodeURIComponent(cursor)}`)
      .set('Authorization', admin);
    expect(feed.status).toBe(200);
    const entries = (feed.body.changes as Array<{ type: string; id: number; action: string }>).map(
      (change) => `${change.type}:${change.id}:${change.action}`,
    );
    expect([...entries].sort()).toEqual(
      [`event:${event.id}:created`, `event:${event.id}:updated`, `venue:${venue.body.id}:created`, `venue:${venue.body.id}:updated`].sort(),
    );
    // and an anonymous reader now sees it published
    expect((await t.http().get(`${API}/events/${event.id}`)).body.status).toBe('publish');
  });

  it('keeps reads exact: a read right after the publication time shows the item published', async () => {
    const event = await eventClient(t).make(eventBody({ title: 'Read at once', status: 'future', date_utc: utcIn(1000) }));
    const due = new Date(`${event.date_utc.replace(' ', 'T')}Z`).getTime();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
    const read = await t.http().get(`${API}/events/${event.id}`);
    expect(read.status).toBe(200);
    expect(read.body.status).toBe('publish');
  });

  it('looks for the next publication time after a write that may schedule a row, not after a plain create or a title update', async () => {
    // a process whose periodic look never comes within the test: only looks after its own writes arm its timer
    const quiet = await startTestApp({ ...FAST, SCHEDULED_CHECK_INTERVAL_MS: '600000' }, { sharing: t });
    try {
      await quiet.app.get(ScheduledPublication).wake();
      const looks = jest.spyOn(quiet.app.get<DataSource>(getDataSourceToken()), 'query');
      const lookCount = () => looks.mock.calls.filter(([sql]) => sql === NEXT_SCHEDULED_SQL).length;
      const events = eventClient(quiet);
      // a read waits for the look a write started (ScheduledPublication.beforeRead)
      const read = (id: number) => quiet.http().get(`${API}/events/${id}`).set('Authorization', admin);
      const event = await events.make(eventBody({ title: 'Plain' }));
      expect((await read(event.id)).status).toBe(200);
      expect(lookCount()).toBe(0);
      // a venue made inline might be scheduled
      const withVenue = await events.make(eventBody({ title: 'With a new hall', venue: { venue: 'Hall made inline' } }));
      expect((await read(withVenue.id)).status).toBe(200);
      expect(lookCount()).toBe(1);

      const renamed = await quiet.http().post(`${API}/events/${event.id}`).set('Authorization', admin).send({ title: 'Plain, renamed' });
      expect(renamed.status).toBe(200);
      expect((await read(event.id)).body.title).toBe('Plain, renamed');
      expect(lookCount()).toBe(1);

      const scheduled = await quiet
        .http()
        .post(`${API}/events/${event.id}`)
        .set('Authorization', admin)
        .send({ status: 'future', date_utc: utcIn(1500) });
      expect(scheduled.status).toBe(200);
      expect(scheduled.body.status).toBe('future');
      expect((await read(event.id)).status).toBe(200);
      expect(lookCount()).toBeGreaterThanOrEqual(2);
      // published on time by the timer that look armed, with nobody reading
      const status = async () => (await dataSource().query('SELECT status FROM events WHERE id = ?', [event.id]))[0].status as string;
      for (let tries = 0; tries < 100 && (await status()) !== 'publish'; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await status()).toBe('publish');
      expect(await changesOf('event', event.id)).toEqual(['created', 'updated', 'updated', 'published']);
    } finally {
      await quiet.close();
    }
  });

  it('publishes once when two processes share the database: one change and one delivery per item', async () => {
    const second = await startTestApp({ ...FAST, SCHEDULED_CHECK_INTERVAL_MS: '100' }, { sharing: t });
    try {
      await subscribe('/shared', ['event.published']);
      const when = utcIn(2000);
      const events = await Promise.all(
        Array.from({ length: 4 }, (_, index) =>
          eventClient(index % 2 ? second : t).make(eventBody({ title: `Shared ${index}`, status: 'future', date_utc: when })),
        ),
      );
      await rx.waitFor(() => events.every((event) => published('/shared', 'event', event.id).length >= 1), 15000, 'the publications');
      // both processes have looked after the publication time, and both dispatchers have sent what was fanned out
      for (const app of [t, second]) await app.app.get(ScheduledPublication).wake();
      for (const app of [t, second]) await app.app.get(WebhookDispatcher).settle();
      for (const event of events) {
        expect(await changesOf('event', event.id)).toEqual(['created', 'published']);
        expect(published('/shared', 'event', event.id)).toHaveLength(1);
      }
    } finally {
      await second.close();
    }
  });
});
