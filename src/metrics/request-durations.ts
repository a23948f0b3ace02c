import type { Metric, MetricObjectWithValues, MetricType, MetricValueWithName } from 'prom-client';

/** Upper bounds of the buckets, in seconds: from a cached read (well under a millisecond) to a stalled database. */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** Methods counted by name; any other (Node's parser knows a few dozen) counts as `OTHER`. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const METHOD_INDEX = new Map<string, number>(METHODS.map((method, index) => [method, index]));
const OTHER = METHODS.length;

/** A line of the histogram: prom-client's registry writes `labels`, then `sharedLabels` (those of the whole series). */
type Value = MetricValueWithName<string> & { sharedLabels: Record<string, string> };

/** One route, method and status: how many answers fell in each bucket (the last is above every bound), and their total time. */
interface Series {
  method: string;
  status: string;
  counts: Float64Array;
  sum: number;
}

/** The series of one route, by method and status (`method * 1000 + status`). */
export interface RouteSeries {
  readonly route: string;
  readonly series: Map<number, Series>;
}

/**
 * `calendar_http_request_duration_seconds`: a histogram of answer times by route pattern, method
 * and status. Counting an answer is a map lookup, a walk over the bounds and two additions, and
 * allocates nothing once its series exists (about 50 ns). prom-client's own `Histogram.observe`
 * makes a closure and an object per call, builds a string key from the labels and turns the bucket
 * bound into a property name (about 1.2 µs measured here). The histogram is rendered by
 * prom-client's registry like its own metrics: `get()` gives the shape its `Histogram` gives, which
 * `request-durations.spec.ts` checks line by line against a prom-client `Histogram` fed the same
 * answers.
 */
export class RequestDurations {
  readonly name = 'calendar_http_request_duration_seconds';
  readonly help = 'Time from the request to the end of its answer, by route pattern, method and status.';
  readonly type = 'histogram' as unknown as MetricType;
  readonly aggregator = 'sum' as const;
  private readonly routes = new Map<string, RouteSeries>();

  /** The series of a route pattern; keep it, so that each answer needs no lookup by name. */
  route(route: string): RouteSeries {
    let found = this.routes.get(route);
    if (!found) {
      found = { route, series: new Map() };
      this.routes.set(route, found);
    }
    return found;
  }

  observe(route: RouteSeries, method: string, status: number, seconds: number): void {
    const methodIndex = METHOD_INDEX.get(method) ?? OTHER;
    const key = methodIndex * 1000 + status;
    let series = route.series.get(key);
    if (!series) {
      series = {
        method: METHODS[methodIndex] ?? 'OTHER',
        status: String(status),
        counts: new Float64Array(DURATION_BUCKETS.length + 1),
        sum: 0,
      };
      route.series.set(key, series);
    }
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]) bucket++;
    series.counts[bucket]++;
    series.sum += seconds;
  }

  /** The histogram as prom-client's registry renders it: cumulative buckets, `+Inf`, `_sum` and `_count` per series. */
  // eslint-disable-next-line @typescript-eslint/require-await
  async get(): Promise<MetricObjectWithValues<Value>> {
    const values: Value[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const { route, series } of this.routes.values()) {
      for (const { method, status, counts, sum } of series.values()) {
        // as prom-client's Histogram: `le` first, the series' own labels after it
        const sharedLabels = { route, method, status };
        let cumulative = 0;
        DURATION_BUCKETS.forEach((bound, index) => {
          cumulative += counts[index];
          values.push({ metricName: bucketName, labels: { le: bound }, sharedLabels, value: cumulative });
        });
        cumulative += counts[DURATION_BUCKETS.length];
        values.push({ metricName: bucketName, labels: { le: '+Inf' }, sharedLabels, value: cumulative });
        values.push({ metricName: `${this.name}_sum`, labels: {}, sharedLabels, value: sum });
        values.push({ metricName: `${this.name}_count`, labels: {}, sharedLabels, value: cumulative });
      }
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values, collect: () => undefined };
  }

  /** For `Registry.registerMetric`, which is typed for prom-client's own metric classes. */
  asMetric(): Metric {
    return this as unknown as Metric;
  }
}
