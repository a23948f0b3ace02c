import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { recordingChanges } from '../src/changes/change-recording.js';
import { DomainEvents } from '../src/changes/domain-events.service.js';
import type { DomainEvent } from '../src/changes/domain-event.js';
import { buildProgram } from '../src/cli/commands.js';
import { LoginLocks } from '../src/limits/login-locks.js';
import { FeedTokensService } from '../src/users/feed-tokens.service.js';
import { UsersService } from '../src/users/users.service.js';
import { WebhookDispatcher } from '../src/webhooks/webhook-dispatcher.js';
import { WebhooksService } from '../src/webhooks/webhooks.service.js';
import { eventBody, eventClient, expectError, type EventClient } from './support/events.js';
import { ADMIN, API, basic, PUBLIC_URL, startTestApp, type TestApp } from './support/test-app.js';
import { startReceiver, type Receiver, type Received } from './support/webhook-receiver.js';

const admin = basic(ADMIN);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// MySQL/MariaDB keep whole seconds, so retries there wait a whole second at least: a larger base keeps the gaps apart
const RETRY_BASE_MS = process.env.DATABASE_URL ? 500 : 150;
const FAST = {
  OUTBOUND_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS),
  CHANGES_POLL_INTERVAL_MS: '100',
  WEBHOOK_TIMEOUT_MS: '2000',
};

describe('webhooks and domain events', () => {
  let t: TestApp;
  let ev: EventClient;
  let rx: Receiver;
  const send = (
    method: 'get' | 'post' | 'put' | 'patch' | 'delete',
    path: string,
    body?: Record<string, unknown>,
    auth: string | null = admin,
  ) => {
    const req = t.http()[method](`${API}${path}`);
    if (auth) req.set('Authorization', auth);
    return body ? req.send(body) : req;
  };
  const subscribe = async (path: string, events: string[] = ['*'], extra: Record<string, unknown> = {}) => {
    const res = await send('post', '/webhooks', { url: rx.url(path), events, ...extra });
    if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: number; secret: string };
  };
  /** Runs a transaction that changes a tag and records the change, then fails: it rolls back. */
  const rollBackAfterRecording = (id: number) =>
    t.app.get<DataSource>(getDataSourceToken()).transaction(async (manager) => {
      await recordingChanges(manager, 'tag', [id], () => manager.query('UPDATE tags SET description = ? WHERE id = ?', ['never', id]));
      throw new Error('roll back');
    });
  const brief = (list: Received[]) => list.map((entry) => `${entry.json.type}:${entry.json.data.id}`);

  beforeAll(async () => {
    t = await startTestApp(FAST);
    ev = eventClient(t);
    rx = await startReceiver();
  });
  afterAll(async () => {
    await t.close();
    await rx.close();
  });

  describe('routes', () => {
    it('are for administrators only: 401 anonymous, 403 for every other role, in the contract shape', async () => {
      const editor = basic(await t.user('editor'));
      for (const [method, path] of [
        ['get', '/webhooks'],
        ['post', '/webhooks'],
        ['get', '/webhooks/1'],
        ['patch', '/webhooks/1'],
        ['delete', '/webhooks/1'],
        ['get', '/webhooks/1/deliveries'],
        ['post', '/webhooks/1/ping'],
        ['post', '/webhooks/1/deliveries/1/retry'],
      ] as const) {
        const body = method === 'post' || method === 'patch' ? { url: rx.url(), events: ['*'] } : undefined;
        expectError(await send(method, path, body, null), 401, 'rest_forbidden');
        expectError(await send(method, path, body, editor), 403, 'rest_forbidden');
      }
    });

    it('validate every field at once (400 rest_invalid_param naming each)', async () => {
      const bad = await send('post', '/webhooks', {
        url: 'ftp://example.org/x',
        events: ['event.exploded', 'event.*'],
        edition: 'xx',
        active: 'maybe',
      });
      expectError(bad, 400, 'rest_invalid_param', ['url', 'events', 'active', 'edition']);
      expectError(await send('post', '/webhooks', { events: ['*'] }), 400, 'rest_missing_callback_param', ['url']);
      expectError(await send('post', '/webhooks', { url: 'https://user:pw@example.org/', events: ['*'] }), 400, 'rest_invalid_param', [
        'url',
      ]);
      expectError(await send('post', '/webhooks', { url: rx.url(), events: [] }), 400, 'rest_invalid_param', ['events']);
    });

    it('create (secret shown once), read, list, update, rotate, delete; listed in the index and /doc', async () => {
      const created = await send('post', '/webhooks', {
        url: rx.url('/crud'),
        events: ['event.*', 'tag.deleted'],
        description: 'CRM',
        edition: 'de',
      });
      expect(created.status).toBe(201);
      expect(created.headers.location).toBe(`${PUBLIC_URL}${API}/webhooks/${created.body.id}`);
      expect(created.body).toMatchObject({
        url: rx.url('/crud'),
        events: ['event.*', 'tag.deleted'],
        description: 'CRM',
        active: true,
        edition: 'de',
      });
      expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(created.body.secret.slice(6), 'base64')).toHaveLength(32);
      const id = created.body.id as number;
      const read = await send('get', `/webhooks/${id}`);
      expect(read.status).toBe(200);
      expect(read.body.secret).toBeUndefined();
      const list = await send('get', '/webhooks?per_page=50');
      expect(list.body.webhooks.map((hook: { id: number }) => hook.id)).toContain(id);
      expect(list.headers['x-wp-total']).toBe(String(list.body.total));
      const updated = await send('patch', `/webhooks/${id}`, { description: 'CRM 2', events: 'event.created,venue.*' });
      expect(updated.body).toMatchObject({ description: 'CRM 2', events: ['event.created', 'venue.*'] });
      expect(updated.body.secret).toBeUndefined();
      const rotated = await send('post', `/webhooks/${id}`, { rotate_secret: true });
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(rotated.body.secret).not.toBe(created.body.secret);
      const removed = await send('delete', `/webhooks/${id}`);
      expect(removed.body.id).toBe(id);
      expectError(await send('get', `/webhooks/${id}`), 404, 'rest_webhook_not_found');

      const index = await t.http().get(API);
      for (const route of ['/webhooks', '/webhooks/(?P<id>\\d+)', '/webhooks/(?P<id>\\d+)/deliveries', '/webhooks/(?P<id>\\d+)/ping']) {
        expect(Object.keys(index.body.routes)).toContain(`/tribe/events/v1${route}`);
      }
      const doc = await t.http().get(`/de${API}/doc`);
      expect(doc.body.paths['/webhooks'].post.summary).not.toBe('Create a webhook subscription');
      expect(Object.keys(doc.body.paths)).toContain('/webhooks/{id}/deliveries/{delivery_id}/retry');
    });
  });

  describe('command line', () => {
    it('creates, lists, updates, rotates, shows deliveries, retries and deletes', async () => {
      const lines: string[] = [];
      const run = (...args: string[]) =>
        buildProgram(
          {
            users: async () => t.app.get(UsersService),
            loginLocks: async () => t.app.get(LoginLocks),
            feedTokens: async () => t.app.get(FeedTokensService),
            webhooks: async () => t.app.get(WebhooksService),
          },
          { out: (line) => lines.push(line) },
        ).parseAsync(['node', 'cli', ...args]);
      await run('webhook:create', '--url', rx.url('/cli'), '--events', 'tag.created, venue.*', '--description', 'from the shell');
      const secret = lines.at(-1) as string;
      expect(secret).toMatch(/^whsec_/);
      const id = Number(/^Created webhook (\d+)\tactive\t/.exec(lines[0])?.[1]);
      expect(id).toBeGreaterThan(0);
      lines.length = 0;
      await run('webhook:list');
      expect(lines).toContain(`${id}\tactive\t${rx.url('/cli')}\ttag.created,venue.*\ten`);
      const tag = (await send('post', '/tags', { name: 'from-the-shell' })).body;
      await rx.waitFor(() => rx.received.some((entry) => entry.path === '/cli'));
      expect(rx.verified('/cli', secret)[0].json.data.id).toBe(tag.id);
      await sleep(200);
      lines.length = 0;
      await run('webhook:deliveries', '--id', String(id));
      expect(lines).toEqual([expect.stringMatching(/^\d+\ttag\.created\tdelivered\t1 attempt\(s\)\t.+\t200$/)]);
      const deliveryId = lines[0].split('\t')[0];
      await run('webhook:retry', '--id', String(id), '--delivery', deliveryId);
      expect(lines.at(-1)).toMatch(new RegExp(`^Delivery ${deliveryId} \\(tag\\.created\\) is queued again`));
      await rx.waitFor(() => rx.received.filter((entry) => entry.path === '/cli').length === 2);
      await run('webhook:update', '--id', String(id), '--active', 'false');
      expect(lines.at(-1)).toMatch(new RegExp(`^Updated webhook ${id}\tinactive\t`));
      await run('webhook:update', '--id', String(id), '--active', 'true', '--rotate-secret');
      expect(lines.at(-1)).toMatch(/^whsec_/);
      expect(lines.at(-1)).not.toBe(secret);
      await expect(run('webhook:create', '--url', 'ftp://example.org/', '--events', '*')).rejects.toThrow(/rest_invalid_param/);
      await expect(run('webhook:update', '--id', '999999', '--active', 'true')).rejects.toThrow(/rest_webhook_not_found/);
      await run('webhook:delete', '--id', String(id));
      expect(lines.at(-1)).toBe(`Deleted webhook ${id} (${rx.url('/cli')}).`);
    });
  });

  describe('delivery', () => {
    it('sends every change type, signed (verified with the standardwebhooks package), in order, with the administrator JSON', async () => {
      const hook = await subscribe('/all');
      const venue = (await send('post', '/venues', { venue: 'Hook hall' })).body;
      await send('post', `/venues/${venue.id}`, { city: 'Lyon' });
      const organizer = (await send('post', '/organizers', { organizer: 'Hook crew' })).body;
      const category = (await send('post', '/categories', { name: 'Hook category' })).body;
      const tag = (await send('post', '/tags', { name: 'hook-tag' })).body;
      await send('post', `/tags/${tag.id}`, { description: 'tagged' });
      const event = await ev.make(eventBody({ title: 'Hooked', venue: venue.id, organizer: [organizer.id], categories: [category.id] }));
      const afterCreate = (await ev.get(event.id, admin)).body;
      expect((await ev.update(event.id, { title: 'Hooked again' })).status).toBe(200);
      expect((await ev.remove(event.id)).status).toBe(200);
      expect((await ev.update(event.id, { status: 'publish' })).status).toBe(200);
      const future = new Date(Date.now() + 1500).toISOString().slice(0, 19).replace('T', ' ');
      const scheduled = await ev.make(eventBody({ title: 'Scheduled hook', status: 'future', date_utc: future }));
      expect((await send('delete', `/venues/${venue.id}`)).status).toBe(200);
      expect((await send('post', `/venues/${venue.id}`, { status: 'publish' })).status).toBe(200);
      expect((await send('delete', `/organizers/${organizer.id}`)).status).toBe(200);
      const tagBefore = (await send('get', `/tags/${tag.id}`)).body;
      expect((await send('delete', `/tags/${tag.id}`)).status).toBe(200);
      expect((await send('delete', `/categories/${category.id}`)).status).toBe(200);
      await sleep(1600);
      await ev.list(); // reads publish what is due

      const expected = [
        `venue.created:${venue.id}`,
        `venue.updated:${venue.id}`,
        `organizer.created:${organizer.id}`,
        `category.created:${category.id}`,
        `tag.created:${tag.id}`,
        `tag.updated:${tag.id}`,
        `event.created:${event.id}`,
        `event.updated:${event.id}`,
        `event.trashed:${event.id}`,
        `event.restored:${event.id}`,
        `event.created:${scheduled.id}`,
        `venue.trashed:${venue.id}`,
        `venue.restored:${venue.id}`,
        `organizer.trashed:${organizer.id}`,
        `tag.deleted:${tag.id}`,
        `category.deleted:${category.id}`,
        `event.published:${scheduled.id}`,
      ];
      await rx.waitFor(() => rx.received.filter((entry) => entry.path === '/all').length >= expected.length);
      await sleep(300);
      const got = rx.verified('/all', hook.secret);
      // every change once; in commit order for each record (records are delivered side by side)
      expect([...brief(got)].sort()).toEqual([...expected].sort());
      const perRecord = (list: string[]) => {
        const groups = new Map<string, string[]>();
        for (const item of list) {
          const [type, id] = item.split(':');
          const key = `${type.split('.')[0]}:${id}`;
          groups.set(key, [...(groups.get(key) ?? []), type]);
        }
        return Object.fromEntries(groups);
      };
      expect(perRecord(brief(got))).toEqual(perRecord(expected));
      for (const entry of got) {
        expect(entry.headers['content-type']).toBe('application/json');
        expect(entry.headers['webhook-id']).toMatch(/^msg_/);
        expect(Number(entry.headers['webhook-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 60);
        expect(entry.json.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      }
      expect(new Set(got.map((entry) => entry.headers['webhook-id'])).size).toBe(got.length);
      // the data is what an administrator reads, as it was right after that write
      const created = got.find((entry) => entry.json.type === 'event.created')!.json.data;
      expect(created).toEqual(afterCreate);
      expect(got.find((entry) => entry.json.type === 'event.updated')!.json.data.title).toBe('Hooked again');
      expect(got.find((entry) => entry.json.type === 'event.trashed')!.json.data.status).toBe('trash');
      // a deletion carries the last state
      expect(got.find((entry) => entry.json.type === 'tag.deleted')!.json.data).toEqual(tagBefore);
      expect(got.find((entry) => entry.json.type === 'event.published')!.json.data.status).toBe('publish');
      await send('delete', `/webhooks/${hook.id}`);
    });

    it('uses the URLs of the subscription edition', async () => {
      const hook = await subscribe('/german', ['tag.created'], { edition: 'de' });
      const tag = (await send('post', '/tags', { name: 'german-hook' })).body;
      await rx.waitFor(() => rx.received.some((entry) => entry.path === '/german'));
      const [entry] = rx.verified('/german', hook.secret);
      expect(entry.json.data.id).toBe(tag.id);
      expect(entry.json.data.urls.self).toBe(`${PUBLIC_URL}/de${API}/tags/${tag.id}`);
      await send('delete', `/webhooks/${hook.id}`);
    });

    it('sends nothing for refused writes', async () => {
      const hook = await subscribe('/refused');
      expect((await ev.create({ title: '' })).status).toBe(400);
      expect((await ev.create(eventBody(), null)).status).toBe(401);
      expect((await send('post', '/tags', { name: 'x' }, basic(await t.user('subscriber')))).status).toBe(403);
      // a write whose transaction rolls back after recording its change
      const victim = (await send('post', '/tags', { name: 'rolled-back-victim' })).body;
      await rx.waitFor(() => rx.received.some((entry) => entry.path === '/refused'));
      rx.received.splice(0, rx.received.length);
      await expect(rollBackAfterRecording(victim.id)).rejects.toThrow('roll back');
      const marker = (await send('post', '/tags', { name: 'refused-marker' })).body;
      await rx.waitFor(() => rx.received.some((entry) => entry.path === '/refused'));
      await sleep(300);
      expect(brief(rx.verified('/refused', hook.secret))).toEqual([`tag.created:${marker.id}`]);
      await send('delete', `/webhooks/${hook.id}`);
    });

    it('retries a receiver that fails 3 times, with growing gaps, under one webhook-id', async () => {
      rx.answer((req, index) => (req.path === '/flaky' && index < 3 ? { status: 500, body: 'down' } : { status: 200, body: 'ok' }));
      const hook = await subscribe('/flaky', ['tag.created']);
      const tag = (await send('post', '/tags', { name: 'flaky-hook' })).body;
      await rx.waitFor(() => rx.received.filter((entry) => entry.path === '/flaky').length >= 4, 40000);
      await sleep(400);
      const got = rx.verified('/flaky', hook.secret);
      expect(got).toHaveLength(4);
      expect(new Set(got.map((entry) => entry.headers['webhook-id'])).size).toBe(1);
      expect(new Set(got.map((entry) => entry.body)).size).toBe(1);
      const gaps = got.slice(1).map((entry, i) => entry.at - got[i].at);
      expect(gaps[0]).toBeGreaterThanOrEqual(RETRY_BASE_MS * 0.8 - 20);
      expect(gaps[1]).toBeGreaterThan(gaps[0]);
      expect(gaps[2]).toBeGreaterThan(gaps[1]);
      const deliveries = (await send('get', `/webhooks/${hook.id}/deliveries`)).body.deliveries;
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({
        type: 'tag.created',
        status: 'delivered',
        attempts: 4,
        webhook_id: got[0].headers['webhook-id'],
      });
      expect(deliveries[0].payload.data.id).toBe(tag.id);
      expect(deliveries[0].attempt_log.map((attempt: { status_code: number }) => attempt.status_code)).toEqual([500, 500, 500, 200]);
      expect(deliveries[0].attempt_log[0]).toMatchObject({ response: 'down', error: 'The receiver answered 500.' });
      rx.answer(() => ({ status: 200, body: 'ok' }));
      await send('delete', `/webhooks/${hook.id}`);
    }, 60_000);

    it('deactivates a subscription at once on 410 Gone, and sends it nothing more', async () => {
      rx.answer((req) => (req.path === '/gone' ? { status: 410, body: 'gone' } : { status: 200 }));
      const hook = await subscribe('/gone', ['tag.*']);
      await send('post', '/tags', { name: 'gone-1' });
      await rx.waitFor(() => rx.received.some((entry) => entry.path === '/gone'));
      await sleep(300);
      const read = (await send('get', `/webhooks/${hook.id}`)).body;
      expect(read.active).toBe(false);
      expect(read.deactivated_reason).toMatch(/410/);
      await send('post', '/tags', { name: 'gone-2' });
      await sleep(600);
      expect(rx.received.filter((entry) => entry.path === '/gone')).toHaveLength(1);
      // reactivated by an administrator, it receives again
      rx.answer(() => ({ status: 200 }));
      expect((await send('patch', `/webhooks/${hook.id}`, { active: true })).body).toMatchObject({
        active: true,
        deactivated_reason: null,
      });
      const tag = (await send('post', '/tags', { name: 'gone-3' })).body;
      await rx.waitFor(() => rx.received.filter((entry) => entry.path === '/gone').length === 2);
      expect(rx.received.filter((entry) => entry.path === '/gone')[1].json.data.id).toBe(tag.id);
      await send('delete', `/webhooks/${hook.id}`);
    });

    it('gives up after the last attempt and deactivates, saying why', async () => {
      const app = await startTestApp({ ...FAST, WEBHOOK_MAX_ATTEMPTS: '2', WEBHOOK_RETRY_BASE_MS: '50' }, { sharing: t });
      await t.app.get(WebhookDispatcher).pause();
      try {
        rx.answer((req) => (req.path === '/failing' ? { status: 503 } : { status: 200 }));
        const hook = await subscribe('/failing', ['tag.created']);
        await app.http().post(`${API}/tags`).set('Authorization', admin).send({ name: 'failing-hook' });
        await rx.waitFor(() => rx.received.filter((entry) => entry.path === '/failing').length >= 2);
        await sleep(400);
        const read = (await send('get', `/webhooks/${hook.id}`)).body;
        expect(read.active).toBe(false);
        expect(read.deactivated_reason).toMatch(/failed 2 times.*503/);
        const [delivery] = (await send('get', `/webhooks/${hook.id}/deliveries`)).body.deliveries;
        expect(delivery).toMatchObject({ status: 'failed', attempts: 2 });
        await send('delete', `/webhooks/${hook.id}`);
      } finally {
        rx.answer(() => ({ status: 200 }));
        t.app.get(WebhookDispatcher).resume();
        await app.close();
      }
    });

    it('stops sending to a deleted subscription and to one an administrator deactivated', async () => {
      const kept = await subscribe('/kept', ['tag.created']);
      const deleted = await subscribe('/deleted', ['tag.created']);
      const paused = await subscribe('/paused', ['tag.created']);
      await send('delete', `/webhooks/${deleted.id}`);
      await send('patch', `/webhooks/${paused.id}`, { active: false });
      const tag = (await send('post', '/tags', { name: 'after-delete' })).body;
      await rx.waitFor(() => rx.received.some((entry) => entry.path === '/kept' && entry.json.data.id === tag.id));
      await sleep(400);
      expect(rx.received.filter((entry) => entry.path === '/deleted' || entry.path === '/paused')).toEqual([]);
      expect((await send('get', `/webhooks/${paused.id}`)).body.deactivated_reason).toBeNull();
      await send('delete', `/webhooks/${kept.id}`);
      await send('delete', `/webhooks/${paused.id}`);
    });

    it('pings, lists deliveries newest first with paging, and retries a delivery under its webhook-id', async () => {
      const hook = await subscribe('/ping', ['tag.created']);
      const ping = await send('post', `/webhooks/${hook.id}/ping`);
      expect(ping.status).toBe(202);
      expect(ping.body).toMatchObject({ type: 'webhook.ping', status: expect.stringMatching(/pending|sending|delivered/) });
      await rx.waitFor(() => rx.received.some((entry) => entry.path === '/ping'));
      await send('post', '/tags', { name: 'ping-tag' });
      await rx.waitFor(() => rx.received.filter((entry) => entry.path === '/ping').length === 2);
      await sleep(200);
      const page = await send('get', `/webhooks/${hook.id}/deliveries?per_page=1`);
      expect(page.body.total).toBe(2);
      expect(page.headers['x-wp-totalpages']).toBe('2');
      expect(page.body.deliveries[0].type).toBe('tag.created');
      expect(page.body.next_rest_url).toBe(`${PUBLIC_URL}${API}/webhooks/${hook.id}/deliveries/?per_page=1&page=2`);
      const second = (await send('get', `/webhooks/${hook.id}/deliveries?per_page=1&page=2`)).body.deliveries[0];
      expect(second.type).toBe('webhook.ping');
      const retried = await send('post', `/webhooks/${hook.id}/deliveries/${second.id}/retry`);
      expect(retried.status).toBe(202);
      await rx.waitFor(() => rx.received.filter((entry) => entry.path === '/ping').length === 3);
      const got = rx.verified('/ping', hook.secret);
      expect(got[2].headers['webhook-id']).toBe(got[0].headers['webhook-id']);
      expect(got[2].body).toBe(got[0].body);
      expectError(await send('post', `/webhooks/${hook.id}/deliveries/999999/retry`), 404, 'rest_webhook_delivery_not_found');
      await send('delete', `/webhooks/${hook.id}`);
    });
  });

  describe('targets', () => {
    it('refuses private, loopback, link-local and other non-public addresses when saved, unless allowed', async () => {
      const strict = await startTestApp({ OUTBOUND_ALLOW_PRIVATE: 'false' }, { sharing: t });
      try {
        for (const url of [
          'http://127.0.0.1:8080/x',
          'http://localhost/x',
          'http://10.1.2.3/x',
          'http://192.168.0.10/x',
          'http://172.20.0.1/x',
          'http://169.254.169.254/latest',
          'http://[::1]/x',
          'http://[fe80::1]/x',
          'http://[::ffff:127.0.0.1]/x',
          'http://0.0.0.0/x',
          'http://224.0.0.1/x',
          'http://2130706433/x',
        ]) {
          const res = await strict
            .http()
            .post(`${API}/webhooks`)
            .set('Authorization', admin)
            .send({ url, events: ['*'] });
          expectError(res, 400, 'rest_invalid_param', ['url']);
        }
        const public_ = await strict
          .http()
          .post(`${API}/webhooks`)
          .set('Authorization', admin)
          .send({ url: 'https://93.184.215.14/hook', events: ['*'], active: false });
        expect(public_.status).toBe(201);
        await strict.http().delete(`${API}/webhooks/${public_.body.id}`).set('Authorization', admin);
      } finally {
        await strict.close();
      }
    });

    it('checks the target again when sending: a private address is refused and the attempt says why', async () => {
      await t.app.get(WebhookDispatcher).pause();
      const strict = await startTestApp({ ...FAST, OUTBOUND_ALLOW_PRIVATE: 'false' }, { sharing: t });
      try {
        const hook = await subscribe('/never', ['tag.created']);
        const posted = await strict.http().post(`${API}/tags`).set('Authorization', admin).send({ name: 'never-sent' });
        expect(posted.status).toBe(201);
        await strict.app.get(WebhookDispatcher).settle();
        await sleep(200);
        await strict.app.get(WebhookDispatcher).settle();
        const [delivery] = (await send('get', `/webhooks/${hook.id}/deliveries`)).body.deliveries;
        expect(delivery.attempt_log[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/^The address is not allowed/) });
        expect(delivery.attempt_log[0].error).not.toMatch(/127\.0\.0\.1/);
        expect(rx.received.filter((entry) => entry.path === '/never')).toEqual([]);
        await send('delete', `/webhooks/${hook.id}`);
      } finally {
        await strict.close();
        t.app.get(WebhookDispatcher).resume();
      }
    });
  });

  describe('domain events', () => {
    it('reach subscribers after commit, in order, never for a refused write; a throwing or slow subscriber delays nothing', async () => {
      const events = t.app.get(DomainEvents);
      const seen: DomainEvent[] = [];
      const stop = [
        events.subscribe(['tag.*', 'event.created'], (event) => {
          seen.push(event);
        }),
        events.subscribe('*', () => {
          throw new Error('a broken subscriber');
        }),
        events.subscribe('*', async () => {
          await new Promise(() => undefined); // never settles
        }),
        events.subscribe('*', () => {
          const until = Date.now() + 5;
          while (Date.now() < until); // a little busy
        }),
      ];
      try {
        expect(() => events.subscribe('event.exploded', () => undefined)).toThrow(/event\.exploded/);
        const started = Date.now();
        const tag = (await send('post', '/tags', { name: 'domain-tag' })).body;
        expect((await send('post', '/tags', { name: 'domain-tag' })).status).toBe(400); // refused: exists
        await expect(rollBackAfterRecording(tag.id)).rejects.toThrow('roll back');
        await send('post', `/tags/${tag.id}`, { description: 'changed' });
        const event = await ev.make(eventBody({ title: 'Domain' }));
        await send('delete', `/tags/${tag.id}`);
        expect(Date.now() - started).toBeLessThan(5000);
        await events.settle();
        await sleep(100);
        expect(seen.map((event) => `${event.type}:${event.id}`)).toEqual([
          `tag.created:${tag.id}`,
          `tag.updated:${tag.id}`,
          `event.created:${event.id}`,
          `tag.deleted:${tag.id}`,
        ]);
        expect(seen[0]).toMatchObject({ kind: 'tag', action: 'created', statusBefore: null, statusAfter: 'publish' });
        expect(Number(seen[1].seq)).toBeGreaterThan(Number(seen[0].seq));
      } finally {
        for (const end of stop) end();
      }
    });
  });

  describe('several processes', () => {
    it('deliver each change once when two processes share the database', async () => {
      const second = await startTestApp(FAST, { sharing: t });
      try {
        const hook = await subscribe('/twice', ['tag.created']);
        const names = Array.from({ length: 24 }, (_, i) => `twin-${i}`);
        const results = await Promise.all(
          names.map((name, i) => (i % 2 ? second.http() : t.http()).post(`${API}/tags`).set('Authorization', admin).send({ name })),
        );
        const ids = results.filter((res) => res.status === 201).map((res) => res.body.id as number);
        expect(ids).toHaveLength(names.length);
        await rx.waitFor(() => rx.received.filter((entry) => entry.path === '/twice').length >= ids.length, 20000);
        await sleep(1000);
        const got = rx.verified('/twice', hook.secret);
        expect(got.map((entry) => entry.json.data.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
        expect(new Set(got.map((entry) => entry.headers['webhook-id'])).size).toBe(got.length);
        await send('delete', `/webhooks/${hook.id}`);
      } finally {
        await second.close();
      }
    });
  });
});

describe('webhook outbox and log retention', () => {
  let t: TestApp;
  let rx: Receiver;

  beforeAll(async () => {
    t = await startTestApp({ ...FAST, CHANGES_RETENTION_DAYS: '0.00002', WEBHOOK_LOG_RETENTION_DAYS: '0.00002' });
    rx = await startReceiver();
  });
  afterAll(async () => {
    await t.close();
    await rx.close();
  });

  const count = async (table: string) => {
    const [row] = await t.app.get<DataSource>(getDataSourceToken()).query(`SELECT COUNT(*) AS n FROM ${table}`);
    return Number(row.n);
  };

  it('keeps changes until they are fanned out, then prunes them, the deliveries and the attempts', async () => {
    const hook = (
      await t
        .http()
        .post(`${API}/webhooks`)
        .set('Authorization', admin)
        .send({ url: rx.url('/bounded'), events: ['tag.*'] })
    ).body;
    const dispatcher = t.app.get(WebhookDispatcher);
    await dispatcher.pause();
    for (let i = 0; i < 5; i++)
      await t
        .http()
        .post(`${API}/tags`)
        .set('Authorization', admin)
        .send({ name: `bounded-${i}` });
    await sleep(2500); // past the retention of both
    await t.http().get(`${API}/changes`); // prunes when due: nothing was fanned out, so nothing may go
    expect(await count('changes')).toBeGreaterThanOrEqual(5);
    dispatcher.resume();
    await rx.waitFor(() => rx.received.filter((entry) => entry.path === '/bounded').length === 5);
    expect(rx.verified('/bounded', hook.secret)).toHaveLength(5);
    await sleep(2500);
    await t.http().get(`${API}/changes`);
    await dispatcher.settle();
    await sleep(1200);
    await dispatcher.settle();
    expect(await count('changes')).toBe(0);
    expect(await count('webhook_deliveries')).toBe(0);
    expect(await count('webhook_attempts')).toBe(0);
  });
});
