import type { OutboundConfig } from '../config/app-config.js';
import { outboundRequest } from '../common/net/outbound-request.js';
import { OutboundError } from '../common/net/outbound-target.js';

/** Bound on one fetch of a feed, from the name lookup to the end of the answer. */
export const FEED_TIMEOUT_MS = 60_000;
/** Largest feed read (about 40,000 typical events). */
export const FEED_MAX_BYTES = 20 * 1024 * 1024;

/** What the feed answered: nothing new (304), or its text with the validators to send next time. */
export type FeedAnswer = { status: 304 } | { status: 200; text: string; etag: string | null; lastModified: string | null };

/** The feed could not be read; `httpStatus` is what it answered, when it answered. */
export class FeedUnavailable extends Error {
  constructor(
    message: string,
    readonly httpStatus: number | null,
  ) {
    super(message);
  }
}

/**
 * Fetches a feed through the outbound guard (`OUTBOUND_ALLOW_PRIVATE`, redirects checked, bounded in
 * time and size), as a conditional request when the last answer had an `ETag` or `Last-Modified`.
 */
export async function fetchFeed(
  url: string,
  validators: { etag: string | null; lastModified: string | null },
  policy: OutboundConfig,
): Promise<FeedAnswer> {
  const headers: Record<string, string> = {
    accept: 'text/calendar, text/plain;q=0.5, */*;q=0.1',
    'user-agent': 'event-calendar-sources/1',
  };
  if (validators.etag) headers['if-none-match'] = validators.etag;
  if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
  let answer;
  try {
    answer = await outboundRequest(
      url,
      { method: 'GET', headers, timeoutMs: FEED_TIMEOUT_MS, maxBytes: FEED_MAX_BYTES, overflow: 'fail', maxRedirects: 5 },
      policy,
    );
  } catch (error) {
    if (error instanceof OutboundError) throw new FeedUnavailable(`the feed could not be read: ${error.message}`, null);
    throw error;
  }
  if (answer.status === 304) return { status: 304 };
  if (answer.status < 200 || answer.status > 299) throw new FeedUnavailable(`the feed answered HTTP ${answer.status}`, answer.status);
  return {
    status: 200,
    text: new TextDecoder('utf-8').decode(answer.body),
    etag: answer.headers.get('etag'),
    lastModified: answer.headers.get('last-modified'),
  };
}
