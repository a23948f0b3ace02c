import { Injectable } from '@nestjs/common';
import { Metrics } from '../metrics/metrics.js';
import { ResponseCacheStore } from './response-cache-store.js';

/**
 * The response cache in `/metrics`: what its lookups found (counted as plain numbers by the store,
 * read at each scrape), and what it holds.
 */
@Injectable()
export class ResponseCacheMetrics {
  constructor(metrics: Metrics, store: ResponseCacheStore) {
    const lookups = store.lookups;
    metrics.counter({
      name: 'calendar_response_cache_requests_total',
      help: "Anonymous reads the response cache looked up, by what it found: hit (this process's memory), redis (filed by another replica), shared (an answer being built), miss.",
      labelNames: ['result'],
      collect() {
        this.reset();
        for (const [result, count] of Object.entries(lookups)) this.inc({ result }, count);
      },
    });
    metrics.gauge({
      name: 'calendar_response_cache_entries',
      help: 'Answers the response cache of this process holds.',
      collect() {
        this.set(store.entries.size);
      },
    });
    metrics.gauge({
      name: 'calendar_response_cache_bytes',
      help: 'Bytes of the answers the response cache of this process holds (at most 64 MiB).',
      collect() {
        this.set(store.entries.calculatedSize);
      },
    });
  }
}
