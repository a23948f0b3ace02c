import fc from 'fast-check';
import { Histogram, Registry } from 'prom-client';
import { DURATION_BUCKETS, RequestDurations } from './request-durations.js';

const ROUTES = ['/wp-json/tribe/events/v1/events', '/wp-json/tribe/events/v1/events/:id', '/health/ready', 'unmatched'];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

describe('RequestDurations', () => {
  it('is rendered exactly as prom-client renders its own Histogram given the same answers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            route: fc.constantFrom(...ROUTES),
            method: fc.constantFrom(...METHODS),
            status: fc.constantFrom(200, 201, 304, 400, 401, 404, 500, 503),
            // bounds themselves, values between them, and beyond the last
            seconds: fc.oneof(fc.constantFrom(...DURATION_BUCKETS, 0), fc.double({ min: 0, max: 20, noNaN: true })),
          }),
          { maxLength: 200 },
        ),
        async (answers) => {
          const ours = new RequestDurations();
          const oursRegistry = new Registry();
          oursRegistry.registerMetric(ours.asMetric());
          const theirsRegistry = new Registry();
          const theirs = new Histogram({
            name: ours.name,
            help: ours.help,
            labelNames: ['route', 'method', 'status'],
            buckets: [...DURATION_BUCKETS],
            registers: [theirsRegistry],
          });
          for (const { route, method, status, seconds } of answers) {
            ours.observe(ours.route(route), method, status, seconds);
            theirs.observe({ route, method, status: String(status) }, seconds);
          }
          expect(sortedLines(await oursRegistry.metrics())).toEqual(sortedLines(await theirsRegistry.metrics()));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('counts methods outside the usual ones as OTHER, so clients cannot add series', () => {
    const durations = new RequestDurations();
    const route = durations.route('unmatched');
    durations.observe(route, 'PROPFIND', 404, 0.002);
    durations.observe(route, 'MKCOL', 404, 0.002);
    return durations.get().then(({ values }) => {
      const counts = values.filter((value) => value.metricName?.endsWith('_count'));
      expect(counts).toEqual([expect.objectContaining({ value: 2, sharedLabels: { route: 'unmatched', method: 'OTHER', status: '404' } })]);
    });
  });
});

/** The same series may come in another order (prom-client's own order is that of first use by label hash). */
function sortedLines(text: string): string[] {
  return text.split('\n').sort();
}
