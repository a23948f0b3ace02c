import { Injectable } from '@nestjs/common';
import { Metrics } from '../metrics/metrics.js';
import { SourceRunHistory } from './source-run-history.js';

/**
 * Calendar sources in `/metrics`: what the runs of this process did, per source (labelled by its id:
 * sources are few and made by administrators), counted as plain numbers by the run history and read
 * at each scrape.
 */
@Injectable()
export class SourceMetrics {
  constructor(metrics: Metrics, history: SourceRunHistory) {
    const totals = history.totals;
    metrics.counter({
      name: 'calendar_source_runs_total',
      help: 'Runs of calendar sources this process finished, by source id and outcome: completed, not_modified (the feed answered 304), failed (including runs a stopped process left running, closed by this one).',
      labelNames: ['source_id', 'outcome'],
      collect() {
        this.reset();
        for (const [source, { runs }] of totals)
          for (const [outcome, count] of Object.entries(runs)) this.inc({ source_id: String(source), outcome }, count);
      },
    });
    metrics.counter({
      name: 'calendar_source_events_total',
      help: 'Events the runs of this process wrote, by source id and change: created, updated, trashed (cancelled, or gone from the feed).',
      labelNames: ['source_id', 'change'],
      collect() {
        this.reset();
        for (const [source, { created, updated, trashed }] of totals)
          for (const [change, count] of Object.entries({ created, updated, trashed }))
            this.inc({ source_id: String(source), change }, count);
      },
    });
    metrics.counter({
      name: 'calendar_source_failures_total',
      help: 'Failures of the runs of this process, by source id and kind: run (the run failed as a whole; see its error), component (a part of the feed was refused; see the problems of the run).',
      labelNames: ['source_id', 'kind'],
      collect() {
        this.reset();
        for (const [source, { runs, refused }] of totals) {
          this.inc({ source_id: String(source), kind: 'run' }, runs.failed);
          this.inc({ source_id: String(source), kind: 'component' }, refused);
        }
      },
    });
  }
}
