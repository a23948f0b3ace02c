import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Entry } from './cache-entry.js';

/** How long Redis keeps an answer: entries are filed under their data version, so old ones only wait to expire. */
const TTL_SECONDS = 120;
/** Answers larger than this stay in the process that built them. */
const MAX_SHARED_BYTES = 1024 * 1024;

interface StoredEntry extends Omit<Entry, 'body'> {
  body: string;
}

/**
 * The response cache's second level when `REDIS_URL` is set: answers built by one app replica are
 * filed in Redis under their data version and key, so the others take them instead of building the
 * same page again (each keeps its own in-memory copy in front). Redis is a help, never a
 * dependency: a Redis that is slow or away makes a lookup a miss, and a store is dropped. Keys name
 * the database (a digest of its URL or file), so calendars on different databases never meet even
 * under the same `REDIS_KEY_PREFIX`.
 */
export class SharedAnswers {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(url: string, prefix: string, database: string) {
    this.prefix = `${prefix}${createHash('sha256').update(database).digest('hex').slice(0, 16)}:`;
    this.redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 250, lazyConnect: false });
    this.redis.on('error', () => undefined); // reconnects by itself; lookups meanwhile are misses
  }

  private name(version: string, key: string): string {
    return `${this.prefix}answer:${version}:${key}`;
  }

  async get(key: string, version: string): Promise<Entry | undefined> {
    try {
      const raw = await this.redis.get(this.name(version, key));
      if (raw === null) return undefined;
      const stored = JSON.parse(raw) as StoredEntry;
      return stored.version === version ? { ...stored, body: Buffer.from(stored.body, 'base64') } : undefined;
    } catch {
      return undefined;
    }
  }

  set(key: string, entry: Entry): void {
    if (entry.body.length > MAX_SHARED_BYTES) return;
    const stored: StoredEntry = { ...entry, body: entry.body.toString('base64') };
    this.redis.set(this.name(entry.version, key), JSON.stringify(stored), 'EX', TTL_SECONDS).catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => undefined);
    this.redis.disconnect(); // stops reconnecting to a Redis that never answered
  }
}
