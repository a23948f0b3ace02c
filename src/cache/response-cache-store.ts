import { resolve } from 'node:path';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LRUCache } from 'lru-cache';
import { siteDay } from '../common/dates/site-day.js';
import { onPrimary } from '../common/sql/read-routing.js';
import type { DatabaseConfig, LimitsConfig, SiteConfig } from '../config/app-config.js';
import { DataVersionService } from './data-version.service.js';
import type { Entry } from './cache-entry.js';
import { SharedAnswers } from './shared-answers.js';

export type { Entry } from './cache-entry.js';

/** Work that must happen before any cached read is answered (publishing scheduled items). */
export interface BeforeCachedRead {
  beforeRead(): Promise<void>;
}
export const BEFORE_CACHED_READ = Symbol('before-cached-read');

const MAX_BYTES = 64 * 1024 * 1024;

/**
 * The response cache's memory (`ResponseCacheInterceptor` builds and serves its entries). An entry
 * is current only while the shared data version it was built at is the database's; the version is
 * read for every answer.
 */
@Injectable()
export class ResponseCacheStore implements OnApplicationShutdown {
  readonly entries: LRUCache<string, Entry>;
  /** Answers shared with the other app replicas through Redis (`REDIS_URL`), or null. */
  readonly shared: SharedAnswers | null;
  /**
   * What the lookups of anonymous reads found, since the start: this process's entry (`hit`), one
   * another replica filed in Redis (`redis`), one being built by another request (`shared`), nothing
   * (`miss`). Read by `/metrics`.
   */
  readonly lookups = { hit: 0, redis: 0, shared: 0, miss: 0 };
  /** Answers being built, by version and key: concurrent misses wait for them. */
  private readonly building = new Map<string, Promise<Entry | null>>();
  private readonly today: () => string;

  constructor(
    private readonly version: DataVersionService,
    @Inject(BEFORE_CACHED_READ) private readonly hooks: BeforeCachedRead,
    @Inject(ConfigService) config: ConfigService,
  ) {
    this.today = siteDay(config.getOrThrow<SiteConfig>('site').timezone);

    const limits = config.getOrThrow<LimitsConfig>('limits');
    const max = limits.responseCacheEntries;
    const database = config.getOrThrow<DatabaseConfig>('database');
    this.shared =
      limits.responseCache && limits.redisUrl
        ? new SharedAnswers(limits.redisUrl, limits.redisKeyPrefix, database.kind === 'mysql' ? database.url : resolve(database.path))
        : null;
    this.entries = new LRUCache<string, Entry>({ max, maxSize: MAX_BYTES, sizeCalculation: (entry) => entry.body.length + 64 });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.shared?.close();
  }

  /** The key of an answer: edition, the site's day (relative dates), the canonical URL. */
  key(edition: string, url: string): string {
    return `${edition}|${this.today()}|${url}`;
  }

  /** Scheduled items published, then the shared data version, read after this call began. */
  async currentVersion(): Promise<string> {
    await onPrimary(() => this.hooks.beforeRead());
    return this.version.current();
  }

  /** The entry under `key` when it was built at `version`. */
  fresh(key: string, version: string): Entry | undefined {
    const entry = this.entries.get(key);
    return entry?.version === version ? entry : undefined;
  }

  /**
   * After a miss on this process's entries: the entry another request is building under `key` at
   * `version` (`SHARED`, once built), else one another app replica built (Redis, kept here too),
   * else null: the caller builds it ({@link startBuild}).
   */
  async elsewhere(key: string, version: string): Promise<{ entry: Entry; state: 'HIT' | 'SHARED' } | null> {
    const pending = this.building.get(flightOf(key, version));
    const shared = pending ? await pending : null;
    if (shared) return { entry: shared, state: 'SHARED' };
    const remote = await this.shared?.get(key, version);
    if (!remote) return null;
    if (!this.fresh(key, version)) this.entries.set(key, remote);
    return { entry: remote, state: 'HIT' };
  }

  /**
   * Announces that the answer under `key` is being built at `version`, so that concurrent misses
   * wait for it ({@link elsewhere}). The result ends the build: with the entry, which is kept here
   * and shared with the other replicas, or with null (nothing to keep); calls after the first do
   * nothing.
   */
  startBuild(key: string, version: string): (entry: Entry | null) => void {
    const flight = flightOf(key, version);
    let resolve: (entry: Entry | null) => void = () => undefined;
    const promise = new Promise<Entry | null>((done) => (resolve = done));
    this.building.set(flight, promise);
    let ended = false;
    return (entry) => {
      if (ended) return;
      ended = true;
      if (this.building.get(flight) === promise) this.building.delete(flight);
      if (entry) {
        this.entries.set(key, entry);
        this.shared?.set(key, entry);
      }
      resolve(entry);
    };
  }
}

function flightOf(key: string, version: string): string {
  return `${version}|${key}`;
}
