declare module 'parse-prometheus-text-format' {
  /** One sample line's labels and value, or (summaries and histograms) the values the library gathered. */
  export interface ParsedMetric {
    labels?: Record<string, string>;
    value?: string;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }

  export interface ParsedFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: ParsedMetric[];
  }

  /** Throws on a line that is not valid Prometheus text format. */
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
