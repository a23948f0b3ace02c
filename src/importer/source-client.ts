/**
 * The importer's only way to the source: GET requests (never anything that writes) through the
 * outbound guard (addresses checked against `OUTBOUND_ALLOW_PRIVATE`, redirects checked again,
 * answers bounded), a timeout per attempt, a bound on requests in flight, and retries with backoff
 * on 429, 5xx, timeouts and lost connections (`Retry-After` honoured).
 */
import type { OutboundConfig } from '../config/app-config.js';
import { outboundRequest } from '../common/net/outbound-request.js';
import { OutboundError } from '../common/net/outbound-target.js';
import { htmlToText } from '../common/text/html.js';

/** A failure that ends the run: one line, meant for the operator. */
export class SourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceError';
  }
}

export interface SourceClientOptions {
  user?: string;
  password?: string;
  /** Bound of one attempt, in milliseconds. */
  timeoutMs: number;
  /** Attempts after the first one, for answers worth repeating. */
  retries: number;
  /** First backoff step; it doubles with every attempt (with jitter). */
  retryBaseMs: number;
  /** Longest wait a `Retry-After` may impose. */
  maxRetryAfterMs: number;
  /** Requests in flight at most. */
  concurrency: number;
  /** Which non-public addresses the source may have (`OUTBOUND_ALLOW_PRIVATE`). */
  outbound: OutboundConfig;
}

/** Largest answer read from the source: a page of 100 events with long descriptions is far below it. */
export const SOURCE_MAX_BYTES = 32 * 1024 * 1024;
/** Redirects followed at most per request, each checked like the first address. */
export const SOURCE_MAX_REDIRECTS = 5;

export const DEFAULT_CLIENT_OPTIONS: SourceClientOptions = {
  timeoutMs: 30_000,
  retries: 5,
  retryBaseMs: 500,
  maxRetryAfterMs: 120_000,
  concurrency: 4,
  outbound: { allowAll: false, allow: [] },
};

/** An answer of the source, its body read: JSON when it is JSON, else the text. */
export interface SourceAnswer {
  url: string;
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined when the body is not JSON. */
  json: unknown;
  /** The body as text (kept short for messages). */
  text: string;
  /** The body looks like an HTML page. */
  html: boolean;
}

const RETRYABLE = (status: number) => status === 429 || (status >= 500 && status <= 599);

/** `Retry-After` in milliseconds (seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Failures that another attempt cannot change: the address, the name, the URL, the size, a redirect loop. */
const FINAL_PROBLEMS = new Set(['url', 'not_allowed', 'unresolvable', 'too_large', 'redirects']);

export class SourceClient {
  readonly options: SourceClientOptions;
  private readonly authorization: string | undefined;
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  /** Requests sent (attempts included), for the summary. */
  requests = 0;
  retried = 0;

  constructor(options: Partial<SourceClientOptions> = {}) {
    this.options = { ...DEFAULT_CLIENT_OPTIONS, ...options };
    const { user, password } = this.options;
    this.authorization =
      user !== undefined && password !== undefined ? `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` : undefined;
  }

  get authenticated(): boolean {
    return this.authorization !== undefined;
  }

  /**
   * GET `url`, repeating it while the source answers 429/5xx, times out or drops the connection.
   * Other statuses are returned as they are; a source that never answers ends the run.
   * `anonymous` sends no credentials (to see what a visitor sees).
   */
  async get(url: string, options: { anonymous?: boolean } = {}): Promise<SourceAnswer> {
    const { retries, retryBaseMs, maxRetryAfterMs } = this.options;
    let lastProblem = '';
    let answered = false;
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) this.retried++;
      let wait: number | null = null;
      try {
        const answer = await this.limited(() => this.once(url, options.anonymous === true));
        if (!RETRYABLE(answer.status)) return answer;
        answered = true;
        lastProblem = `answered ${errorSummary(answer)}`;
        wait = retryAfterMs(answer.headers.get('retry-after'));
        if (wait !== null && wait > maxRetryAfterMs) {
          throw new SourceError(
            `GET ${url}: ${answer.status} with Retry-After ${Math.round(wait / 1000)} s, longer than the importer waits`,
          );
        }
      } catch (error) {
        if (error instanceof SourceError) throw error;
        if (error instanceof OutboundError && FINAL_PROBLEMS.has(error.problem))
          throw new SourceError(`cannot read ${url}: ${error.message}`);
        answered = false;
        lastProblem = error instanceof OutboundError ? error.message : 'the request could not be sent';
      }
      if (attempt === retries) break;
      const backoff = retryBaseMs * 2 ** attempt;
      await sleep(wait ?? backoff / 2 + Math.random() * (backoff / 2));
    }
    const attempts = `gave up after ${retries + 1} attempt${retries === 0 ? '' : 's'}`;
    throw new SourceError(answered ? `GET ${url} ${lastProblem} (${attempts})` : `cannot reach ${url}: ${lastProblem} (${attempts})`);
  }

  private async once(url: string, anonymous: boolean): Promise<SourceAnswer> {
    this.requests++;
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'event-calendar-api import:tec' };
    if (this.authorization && !anonymous) headers.authorization = this.authorization;
    const response = await outboundRequest(
      url,
      {
        method: 'GET',
        headers,
        timeoutMs: this.options.timeoutMs,
        maxBytes: SOURCE_MAX_BYTES,
        overflow: 'fail',
        maxRedirects: SOURCE_MAX_REDIRECTS,
        credentialHeaders: ['authorization'],
      },
      this.options.outbound,
    );
    const text = response.body.toString('utf8');
    let json: unknown;
    const trimmed = text.trimStart();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    const type = response.headers.get('content-type') ?? '';
    const html = json === undefined && (/html/i.test(type) || /^<(!doctype|html|head|body)/i.test(trimmed));
    return { url, status: response.status, headers: response.headers, json, text: text.slice(0, 2000), html };
  }

  private async limited<T>(work: () => Promise<T>): Promise<T> {
    while (this.active >= this.options.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `code: message` of a WordPress-style error body, or the status alone. */
export function errorSummary(answer: SourceAnswer): string {
  const body = answer.json as { code?: unknown; message?: unknown } | undefined;
  if (body && typeof body === 'object' && typeof body.code === 'string') {
    const message = typeof body.message === 'string' ? `: ${htmlToText(body.message)}` : '';
    return `${answer.status} ${htmlToText(body.code)}${message}`;
  }
  return answer.html ? `${answer.status} (an HTML page)` : String(answer.status);
}
