import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { parseTargetUrl, resolveTarget, TargetRefused } from './webhook-targets.js';

/** Bytes of an answer read at most; the rest is not waited for. */
export const RESPONSE_READ_BYTES = 16 * 1024;
/** Characters of an answer kept in the attempt log. */
export const RESPONSE_KEPT_CHARS = 1000;

export interface SendOptions {
  allowPrivate: boolean;
  /** Bound on connecting, and again on the answer once connected. */
  timeoutMs: number;
}

export interface SendResult {
  /** HTTP status, or null when no answer came. */
  statusCode: number | null;
  durationMs: number;
  /** The start of the answer's body. */
  responseBody: string;
  /** Why it failed; null on success (a 2xx answer). */
  error: string | null;
}

const USER_AGENT = 'event-calendar-webhooks/1';

/**
 * POSTs one signed message. The target is checked again (the name is resolved now, every address
 * checked) and the connection goes to the address that was checked; redirects are not followed; the
 * connection and the answer are each bounded by `timeoutMs`; at most {@link RESPONSE_READ_BYTES} of
 * the answer are read. Never throws: the result says what happened.
 */
export async function sendWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<SendResult> {
  const started = Date.now();
  const failed = (error: string, statusCode: number | null = null, responseBody = ''): SendResult => ({
    statusCode,
    durationMs: Date.now() - started,
    responseBody,
    error,
  });
  const url = parseTargetUrl(target);
  if (!url) return failed('The target is not an absolute http or https URL.');
  let address: { address: string; family: 4 | 6 };
  try {
    [address] = await resolveTarget(url, options.allowPrivate);
  } catch (error) {
    return failed(error instanceof TargetRefused ? error.message : String(error));
  }
  // the socket connects to the checked address; Host and TLS name stay the URL's
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all)
      (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };
  const payload = Buffer.from(body, 'utf8');
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(url, {
      method: 'POST',
      agent: false,
      lookup: pinned,
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(payload.length),
        'user-agent': USER_AGENT,
      },
    });
    let timer = setTimeout(() => finish(failed(`No connection within ${options.timeoutMs} ms.`)), options.timeoutMs);
    req.on('socket', (socket) => {
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
        clearTimeout(timer);
        timer = setTimeout(() => finish(failed(`No complete answer within ${options.timeoutMs} ms of connecting.`)), options.timeoutMs);
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => finish(failed(`${error.code ?? 'Error'}: ${error.message}`)));
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const text = Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_KEPT_CHARS);
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) {
          finish({ statusCode: status, durationMs: Date.now() - started, responseBody: text, error: null });
        } else if (status >= 300 && status < 400) {
          finish(failed(`Redirects are not followed (Location: ${String(res.headers.location ?? '').slice(0, 200)}).`, status, text));
        } else {
          finish(failed(`The receiver answered ${status}.`, status, text));
        }
      };
      res.on('data', (chunk: Buffer) => {
        if (size >= RESPONSE_READ_BYTES) return;
        chunks.push(chunk.subarray(0, RESPONSE_READ_BYTES - size));
        size += chunk.length;
        if (size >= RESPONSE_READ_BYTES) done();
      });
      res.on('end', done);
      res.on('error', () => done());
    });
    req.end(payload);
  });
}
