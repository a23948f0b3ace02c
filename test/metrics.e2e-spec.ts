import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource, QueryRunner } from 'typeorm';
import { SeriesHorizonJob } from '../src/events/series/series-horizon.job.js';
import { WebhookDispatcher } from '../src/webhooks/webhook-dispatcher.js';
import { OneWayInModule, Sightings } from './support/one-way-in-extension.js';
import { parseScrape, type Scrape } from './support/prometheus-text.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

const TOKEN = 'metrics-test-token-7d1f0c9a2b8e4f36';
const BEARER = `Bearer ${TOKEN}`;
const NAMESPACE = '/wp-json/tribe/events/v1';
const DURATIONS = 'calendar_http_request_duration_seconds';
const MYSQL = Boolean(process.env.DATABASE_URL?.trim());

async function scrape(t: TestApp): Promise<Scrape> {
  const res = await t.http().get('/metrics').set('Authorization', BEARER);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  expect(res.headers['cache-control']).toBe('no-store');
  return parseScrape(res.text);
}

/** The `_count` of the request histogram's series for a route pattern, method and status (0 when there is none). */
function answered(metrics: Scrape, route: string, method: string, status: number): number {
  return metrics.value(`${DURATIONS}_count`, { route, method, status: String(status) }) ?? 0;
}

describe('GET /metrics', () => {
  describe('without METRICS_TOKEN', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(async () => {
      await t.close();
    });

    it('does not exist: 404 rest_no_route in the error contract, never stored', async () => {
      for (const authorization of [undefined, BEARER]) {
        const req = t.http().get('/metrics');
        const res = await (authorization ? req.set('Authorization', authorization) : req);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({
          code: 'rest_no_route',
          message: 'No route matches this URL and request method.',
          data: { status: 404 },
        });
        expect(res.headers['cache-control']).toBe('no-store');
      }
    });
  });

  it("takes the one way in like every request: an extension's middleware, guard and interceptor see a scrape, and its guard's refusal holds", async () => {
    const sightings = new Sightings();
    const t = await startTestApp({ METRICS_TOKEN: TOKEN }, { modules: [OneWayInModule.with(sightings)] });
    try {
      await scrape(t);
      expect(sightings).toMatchObject({ middleware: ['GET /metrics'], guard: ['GET /metrics'], interceptor: ['GET /metrics'] });
      sightings.readsNeedKey = true;
      const refused = await t.http().get('/metrics').set('Authorization', BEARER);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ code: 'rest_forbidden', message: 'You are not allowed to do this.', data: { status: 403 } });
      expect((await t.http().get('/metrics').set('Authorization', BEARER).set('X-Key', 'k')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  describe('with METRICS_TOKEN', () => {
    let t: TestApp;
    let rx: Receiver;
    beforeAll(async () => {
      rx = await startReceiver();
      // a failed attempt is retried in ten minutes: the delivery stays in the backlog for the test
      t = await startTestApp({
        METRICS_TOKEN: TOKEN,
        WEBHOOK_RETRY_BASE_MS: '600000',
        WEBHOOK_MAX_ATTEMPTS: '3',
        WEBHOOK_TIMEOUT_MS: '2000',
      });
    });
    afterAll(async () => {
      await t.close();
      await rx.close();
    });

    it('counts each answer by route pattern (never the URL), method and status, in a histogram a Prometheus parser reads', async () => {
      const anonymous = () => t.http();
      expect((await anonymous().get(`${API}/events`)).status).toBe(200);
      expect((await anonymous().get(`${API}/events`)).status).toBe(200);
      for (const path of [`${API}/events/999901`, `${API}/events/999902`, `/de${API}/events/999903`]) {
        expect((await anonymous().get(path)).status).toBe(404);
      }
      expect((await anonymous().get('/nowhere/999904')).status).toBe(404);
      const tag = await t.http().post(`${API}/tags`).set('Authorization', basic(ADMIN)).send({ name: 'Counted' });
      expect(tag.status).toBe(201);
      expect((await anonymous().get('/health')).status).toBe(200);
      expect((await anonymous().get('/wp-json/')).status).toBe(200);
      expect((await anonymous().get('/de/docs')).status).toBe(200);
      expect((await anonymous().get('/docs/swagger-ui.css')).status).toBe(200);

      await scrape(t);
      const metrics = await scrape(t);
      expect(metrics.families.get(DURATIONS)?.type).toBe('HISTOGRAM');
      expect(answered(metrics, `${NAMESPACE}/events`, 'GET', 200)).toBe(2);
      // three ids, two editions: one series
      expect(answered(metrics, `${NAMESPACE}/events/:id`, 'GET', 404)).toBe(3);
      expect(answered(metrics, 'unmatched', 'GET', 404)).toBe(1);
      expect(answered(metrics, `${NAMESPACE}/tags`, 'POST', 201)).toBe(1);
      expect(answered(metrics, '/health', 'GET', 200)).toBe(1);
      expect(answered(metrics, '/wp-json/', 'GET', 200)).toBe(1);
      expect(answered(metrics, '/de/docs', 'GET', 200)).toBe(1);
      expect(answered(metrics, 'static', 'GET', 200)).toBe(1);
      // the first scrape, counted when its answer ended
      expect(answered(metrics, '/metrics', 'GET', 200)).toBe(1);

      const series = metrics.histogram(DURATIONS);
      expect(series.length).toBeGreaterThanOrEqual(9);
      for (const { labels, buckets, sum, count } of series) {
        expect(Object.keys(labels).sort()).toEqual(['method', 'route', 'status']);
        expect(labels.route).not.toMatch(/99990|nowhere/);
        const cumulative = [...buckets.values()];
        expect(cumulative).toEqual([...cumulative].sort((a, b) => a - b));
        expect(buckets.get('+Inf')).toBe(count);
        expect(sum).toBeGreaterThanOrEqual(0);
      }
    });

    it('refuses a scrape without the token, with another token or with Basic credentials: 401 in the error contract, never stored', async () => {
      const refusals = [undefined, 'Bearer not-the-metrics-token-at-all', `Bearer ${TOKEN}x`, basic(ADMIN), TOKEN];
      for (const authorization of refusals) {
        const req = t.http().get('/metrics');
        const res = await (authorization ? req.set('Authorization', authorization) : req);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ code: 'rest_forbidden', message: 'You are not allowed to do this.', data: { status: 401 } });
        expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
        expect(res.headers['cache-control']).toBe('no-store');
      }
      expect(answered(await scrape(t), '/metrics', 'GET', 401)).toBe(refusals.length);
    });

    it('counts the response cache: a miss, then hits', async () => {
      const before = await scrape(t);
      const lookups = (metrics: Scrape, result: string) => metrics.value('calendar_response_cache_requests_total', { result }) ?? 0;
      const path = `${API}/tags?hide_empty=0&search=cache-metrics`;
      expect((await t.http().get(path)).headers['x-cache']).toBe('MISS');
      expect((await t.http().get(path)).headers['x-cache']).toBe('HIT');
      expect((await t.http().get(path)).headers['x-cache']).toBe('HIT');
      const after = await scrape(t);
      expect(lookups(after, 'miss') - lookups(before, 'miss')).toBe(1);
      expect(lookups(after, 'hit') - lookups(before, 'hit')).toBe(2);
      expect(after.value('calendar_response_cache_entries')).toBeGreaterThanOrEqual(1);
      expect(after.value('calendar_response_cache_bytes')).toBeGreaterThan(0);
    });

    it('shows the webhook backlog and failures, and how far the change log is behind', async () => {
      const idle = await scrape(t);
      for (const status of ['pending', 'sending', 'failed']) expect(idle.value('calendar_webhook_deliveries', { status })).toBe(0);
      expect(idle.value('calendar_webhook_oldest_undelivered_seconds')).toBe(0);
      expect(idle.value('calendar_changes_unsequenced')).toBe(0);
      expect(idle.value('calendar_changes_undispatched')).toBe(0);
      expect(idle.value('calendar_metrics_source_up', { source: 'webhooks' })).toBe(1);
      expect(idle.value('calendar_metrics_source_up', { source: 'changes' })).toBe(1);

      rx.answer((req) => (req.path === '/gone' ? { status: 410 } : { status: 503 }));
      const admin = basic(ADMIN);
      for (const path of ['/down', '/gone']) {
        const res = await t
          .http()
          .post(`${API}/webhooks`)
          .set('Authorization', admin)
          .send({ url: rx.url(path), events: ['*'] });
        expect(res.status).toBe(201);
      }
      const dispatcher = t.app.get(WebhookDispatcher);
      await dispatcher.pause();
      const lastSeq = idle.value('calendar_changes_last_seq') ?? 0;
      expect((await t.http().post(`${API}/tags`).set('Authorization', admin).send({ name: 'Webhooked' })).status).toBe(201);
      const paused = await scrape(t);
      // committed, and not fanned out while the dispatcher is paused
      expect(
        (paused.value('calendar_changes_unsequenced') ?? 0) + (paused.value('calendar_changes_undispatched') ?? 0),
      ).toBeGreaterThanOrEqual(1);

      dispatcher.resume();
      await rx.waitFor(() => rx.received.length >= 2, 10_000, 'an attempt at each receiver');
      await dispatcher.settle();
      const metrics = await scrape(t);
      expect(metrics.value('calendar_changes_last_seq')).toBeGreaterThan(lastSeq);
      expect(metrics.value('calendar_changes_unsequenced')).toBe(0);
      expect(metrics.value('calendar_changes_undispatched')).toBe(0);
      // 503: tried again in ten minutes; 410: given up at once, its subscription deactivated
      expect(metrics.value('calendar_webhook_deliveries', { status: 'pending' })).toBe(1);
      expect(metrics.value('calendar_webhook_deliveries', { status: 'failed' })).toBe(1);
      expect(metrics.value('calendar_webhook_oldest_undelivered_seconds')).toBeGreaterThanOrEqual(0);
      expect(metrics.value('calendar_webhook_oldest_undelivered_seconds')).toBeLessThan(60);
      expect(metrics.value('calendar_webhook_subscriptions', { state: 'active' })).toBe(1);
      expect(metrics.value('calendar_webhook_subscriptions', { state: 'inactive' })).toBe(1);
      expect(metrics.value('calendar_webhook_attempts_total', { outcome: 'retried' })).toBe(1);
      expect(metrics.value('calendar_webhook_attempts_total', { outcome: 'failed' })).toBe(1);
      expect(metrics.value('calendar_webhook_attempts_total', { outcome: 'delivered' })).toBe(0);
    });

    it('answers 200 when a source cannot be read: its values are left out or NaN and it says so', async () => {
      const dispatcher = t.app.get(WebhookDispatcher);
      await dispatcher.pause();
      const dataSource = t.app.get<DataSource>(getDataSourceToken());
      await dataSource.query('ALTER TABLE webhook_deliveries RENAME TO webhook_deliveries_away');
      try {
        const metrics = await scrape(t);
        expect(metrics.value('calendar_metrics_source_up', { source: 'webhooks' })).toBe(0);
        expect(metrics.value('calendar_webhook_deliveries', { status: 'pending' })).toBeUndefined();
        expect(metrics.value('calendar_webhook_oldest_undelivered_seconds')).toBeNaN();
        // everything else is there
        expect(metrics.value('calendar_metrics_source_up', { source: 'changes' })).toBe(1);
        expect(metrics.value('calendar_changes_undispatched')).toBe(0);
        expect(answered(metrics, '/metrics', 'GET', 200)).toBeGreaterThan(0);
      } finally {
        await dataSource.query('ALTER TABLE webhook_deliveries_away RENAME TO webhook_deliveries');
        dispatcher.resume();
      }
      expect((await scrape(t)).value('calendar_metrics_source_up', { source: 'webhooks' })).toBe(1);
    });

    it('shows the series horizon job: last run, its duration, runs by result', async () => {
      const before = await scrape(t);
      expect(before.value('calendar_series_horizon_last_run_timestamp_seconds')).toBe(0);
      expect(before.value('calendar_series_horizon_runs_total', { result: 'ok' })).toBe(0);
      const started = Date.now() / 1000;
      await t.app.get(SeriesHorizonJob).extendDue(new Date());
      const after = await scrape(t);
      expect(after.value('calendar_series_horizon_last_run_timestamp_seconds')).toBeGreaterThanOrEqual(Math.floor(started));
      expect(after.value('calendar_series_horizon_last_success_timestamp_seconds')).toBe(
        after.value('calendar_series_horizon_last_run_timestamp_seconds'),
      );
      expect(after.value('calendar_series_horizon_last_duration_seconds')).toBeGreaterThanOrEqual(0);
      expect(after.value('calendar_series_horizon_runs_total', { result: 'ok' })).toBe(1);
      expect(after.value('calendar_series_horizon_runs_total', { result: 'failed' })).toBe(0);
      expect(after.value('calendar_series_horizon_occurrences_added_total')).toBe(0);
    });

    it("has Node's process metrics and names the database engine", async () => {
      const metrics = await scrape(t);
      expect(metrics.value('process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
      expect(metrics.families.get('nodejs_eventloop_lag_seconds')?.type).toBe('GAUGE');
      expect(metrics.families.get('nodejs_gc_duration_seconds')?.type).toBe('HISTOGRAM');
      expect(metrics.value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      const engine = metrics.samples.find((sample) => sample.name === 'calendar_db_info')?.labels.engine;
      expect(MYSQL ? ['mysql', 'mariadb'] : ['sqlite']).toContain(engine);
      // without read replicas there is no replica lag; SQLite has no pool
      expect(metrics.families.has('calendar_db_replica_lag_seconds')).toBe(false);
      expect(metrics.families.has('calendar_db_pool_connections')).toBe(MYSQL);
    });

    (MYSQL ? it : it.skip)(
      'shows the pool on MySQL/MariaDB: connections in use, idle and waiting; a source that cannot get one times out alone',
      async () => {
        const small = await startTestApp({ METRICS_TOKEN: TOKEN, DB_POOL_SIZE: '3' }, { sharing: t });
        const held: QueryRunner[] = [];
        try {
          const dataSource = small.app.get<DataSource>(getDataSourceToken());
          const pool = (metrics: Scrape, state?: string) =>
            state
              ? metrics.value('calendar_db_pool_connections', { server: 'primary', state })
              : metrics.value('calendar_db_pool_waiting', { server: 'primary' });
          // the background jobs (dispatcher, scheduled publication) take connections now and then: wait for a quiet moment
          const quiet = async () => {
            for (let attempt = 0; ; attempt++) {
              const metrics = await scrape(small);
              if (pool(metrics) === 0 || attempt === 20) return metrics;
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
          };
          const before = await quiet();
          expect(before.value('calendar_db_pool_max_connections', { server: 'primary' })).toBe(3);
          expect(pool(before)).toBe(0);
          expect((pool(before, 'in_use') ?? 0) + (pool(before, 'idle') ?? 0)).toBeGreaterThanOrEqual(1);

          for (let i = 0; i < 3; i++) {
            const runner = dataSource.createQueryRunner();
            await runner.connect();
            held.push(runner);
          }
          const waiting = dataSource.query('SELECT 1');
          const started = Date.now();
          const busy = await scrape(small);
          expect(Date.now() - started).toBeLessThan(5000);
          expect(pool(busy, 'in_use')).toBe(3);
          expect(pool(busy, 'idle')).toBe(0);
          expect(pool(busy)).toBeGreaterThanOrEqual(1);
          expect(busy.value('calendar_metrics_source_up', { source: 'changes' })).toBe(0);
          expect(busy.value('calendar_changes_undispatched')).toBeNaN();

          for (const runner of held.splice(0)) await runner.release();
          await waiting.catch(() => undefined);
          const after = await quiet();
          expect(pool(after)).toBe(0);
          expect(pool(after, 'idle')).toBeGreaterThanOrEqual(1);
          expect(after.value('calendar_metrics_source_up', { source: 'changes' })).toBe(1);
        } finally {
          for (const runner of held) await runner.release();
          await small.close();
        }
      },
    );
  });
});
