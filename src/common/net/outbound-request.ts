import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { OutboundConfig } from '../../config/app-config.js';
import { OutboundError, parseOutboundUrl, resolveOutbound, type ResolvedAddress } from './outbound-target.js';

/**
 * The one way the service fetches a URL (imports from a source site, webhook deliveries): every
 * host checked before connecting ({@link resolveOutbound}), the connection made to the checked
 * addresses only, every redirect checked again, the whole exchange bounded in time and the answer
 * in size. Failures are {@link OutboundError}s whose messages name no address and nothing that answered.
 */
export interface OutboundRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: Buffer;
  /** Bound on the whole exchange, redirects included: lookups, connections, answers. */
  timeoutMs: number;
  /** Bytes of an answer read at most. */
  maxBytes: number;
  /** Beyond `maxBytes`: keep the start of the answer (`truncate`) or fail with `too_large` (`fail`). */
  overflow: 'truncate' | 'fail';
  /** Redirects followed at most; 0 returns a redirect as the answer. */
  maxRedirects: number;
  /** Header names (lower case) dropped when a redirect leads to another origin, such as `authorization`. */
  credentialHeaders?: string[];
}

export interface OutboundAnswer {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  headers: Headers;
  body: Buffer;
  /** The answer was longer than `maxBytes` and was cut. */
  truncated: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function outboundRequest(target: string, request: OutboundRequest, policy: OutboundConfig): Promise<OutboundAnswer> {
  let url = parseOutboundUrl(target);
  if (!url) throw new OutboundError('url', 'the URL is not an absolute http or https URL');
  const deadline = Date.now() + request.timeoutMs;
  let current = { ...request, headers: { ...request.headers } };
  for (let redirects = 0; ; redirects++) {
    const addresses = await withinDeadline(resolveOutbound(url, policy), deadline, request.timeoutMs);
    const answer = await exchange(url, addresses, current, deadline);
    const location = answer.headers.get('location');
    if (!REDIRECTS.has(answer.status) || location === null || request.maxRedirects === 0) return answer;
    if (redirects >= request.maxRedirects) throw new OutboundError('redirects', `more than ${request.maxRedirects} redirects`);
    const next = parseOutboundUrl(safeUrl(location, url));
    if (!next) throw new OutboundError('url', 'a redirect leads to something other than an http or https URL');
    if (next.origin !== url.origin) {
      const headers = Object.entries(current.headers).filter(([name]) => !request.credentialHeaders?.includes(name.toLowerCase()));
      current = { ...current, headers: Object.fromEntries(headers) };
    }
    if (answer.status === 303 || (current.method === 'POST' && (answer.status === 301 || answer.status === 302))) {
      const headers = Object.entries(current.headers).filter(([name]) => !/^content-/i.test(name));
      current = { ...current, method: 'GET', body: undefined, headers: Object.fromEntries(headers) };
    }
    url = next;
  }
}

function safeUrl(location: string, base: URL): string {
  try {
    return new URL(location, base).toString();
  } catch {
    return '';
  }
}

function timeoutError(timeoutMs: number): OutboundError {
  return new OutboundError('timeout', `no answer within ${Math.max(1, Math.round(timeoutMs / 1000))} s`);
}

async function withinDeadline<T>(work: Promise<T>, deadline: number, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(timeoutError(timeoutMs)), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** One request to one URL, connected only to `addresses` (the Host header and the TLS name stay the URL's). */
function exchange(url: URL, addresses: ResolvedAddress[], request: OutboundRequest, deadline: number): Promise<OutboundAnswer> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (error: null, all: ResolvedAddress[]) => void)(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
  return new Promise<OutboundAnswer>((resolve, reject) => {
    let settled = false;
    const finish = (error: OutboundError | null, answer?: OutboundAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      if (error) reject(error);
      else resolve(answer as OutboundAnswer);
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers: Record<string, string> = { ...request.headers };
    if (request.body) headers['content-length'] = String(request.body.length);
    const req = send(url, { method: request.method, agent: false, lookup: pinned, headers });
    const timer = setTimeout(() => finish(timeoutError(request.timeoutMs)), Math.max(0, deadline - Date.now()));
    // what failed (refused, reset, not HTTP, TLS) is not said: it would tell what listens there
    req.on('error', () => finish(new OutboundError('unreachable', 'the server could not be reached')));
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const answer = (truncated: boolean): OutboundAnswer => ({
        url: url.toString(),
        status: res.statusCode ?? 0,
        headers: toHeaders(res),
        body: Buffer.concat(chunks),
        truncated,
      });
      const tooLarge = () => new OutboundError('too_large', `the answer is larger than ${request.maxBytes} bytes`);
      if (request.overflow === 'fail' && Number(res.headers['content-length'] ?? 0) > request.maxBytes) return finish(tooLarge());
      res.on('data', (chunk: Buffer) => {
        if (size + chunk.length > request.maxBytes) {
          if (request.overflow === 'fail') return finish(tooLarge());
          chunks.push(chunk.subarray(0, request.maxBytes - size));
          return finish(null, answer(true));
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () => finish(null, answer(false)));
      res.on('error', () => finish(new OutboundError('unreachable', 'the answer was cut off')));
    });
    req.end(request.body);
  });
}

function toHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      try {
        headers.append(name, one);
      } catch {
        // a header value fetch's Headers refuses is left out
      }
    }
  }
  return headers;
}
