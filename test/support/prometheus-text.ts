import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';

/** One line of a scrape: a metric name, its labels and its value (`NaN`, `+Inf` included). */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A histogram series: its labels (without `le`), its cumulative buckets by bound, its `_sum` and `_count`. */
export interface HistogramSeries {
  labels: Record<string, string>;
  buckets: Map<string, number>;
  sum: number;
  count: number;
}

export interface Scrape {
  families: Map<string, Pick<ParsedFamily, 'help' | 'type'>>;
  samples: Sample[];
  /** The value of the one sample of `name` whose labels include `labels`; undefined when there is none. */
  value: (name: string, labels?: Record<string, string>) => number | undefined;
  histogram: (name: string) => HistogramSeries[];
}

const number = (text: string | undefined): number => (text === undefined ? Number.NaN : Number(text.replace(/^\+?inf$/i, 'Infinity')));

/**
 * Reads a scrape with parse-prometheus-text-format, which throws on any line that is not the text
 * format. That library gathers the series of a labelled histogram into one and drops their labels
 * (its open pull request #8), so each histogram's sample lines are read by it once more without their
 * `# TYPE` line, as plain samples with all their labels, and the series are put together here.
 */
export function parseScrape(text: string): Scrape {
  const parsed = parsePrometheusTextFormat(text);
  const families = new Map(parsed.map((family) => [family.name, { help: family.help, type: family.type }]));
  const samples: Sample[] = [];
  for (const family of parsed) {
    if (family.type === 'HISTOGRAM' || family.type === 'SUMMARY') continue;
    for (const metric of family.metrics) samples.push({ name: family.name, labels: metric.labels ?? {}, value: number(metric.value) });
  }
  const lines = text.split('\n');
  for (const family of parsed.filter((candidate) => candidate.type === 'HISTOGRAM' || candidate.type === 'SUMMARY')) {
    const own = lines.filter(
      (line) => !line.startsWith('#') && /^[^{ ]+/.exec(line)?.[0].replace(/_(bucket|sum|count)$/, '') === family.name,
    );
    // ended by a line feed, as the format wants: the library drops a last line without one
    for (const plain of parsePrometheusTextFormat(`${own.join('\n')}\n`)) {
      for (const metric of plain.metrics) samples.push({ name: plain.name, labels: metric.labels ?? {}, value: number(metric.value) });
    }
  }
  const matches = (labels: Record<string, string>, wanted: Record<string, string>) =>
    Object.entries(wanted).every(([key, value]) => labels[key] === value);
  return {
    families,
    samples,
    value: (name, labels = {}) => {
      const found = samples.filter((sample) => sample.name === name && matches(sample.labels, labels));
      if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
      return found[0]?.value;
    },
    histogram: (name) => {
      const series = new Map<string, HistogramSeries>();
      for (const sample of samples) {
        if (![`${name}_bucket`, `${name}_sum`, `${name}_count`].includes(sample.name)) continue;
        const { le, ...labels } = sample.labels;
        const key = JSON.stringify(Object.entries(labels).sort());
        let entry = series.get(key);
        if (!entry) {
          entry = { labels, buckets: new Map(), sum: Number.NaN, count: Number.NaN };
          series.set(key, entry);
        }
        if (sample.name.endsWith('_bucket')) entry.buckets.set(le, sample.value);
        else if (sample.name.endsWith('_sum')) entry.sum = sample.value;
        else entry.count = sample.value;
      }
      return [...series.values()];
    },
  };
}
