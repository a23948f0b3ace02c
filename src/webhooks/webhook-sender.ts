import type { OutboundConfig } from '../config/app-config.js';
import { outboundRequest } from '../common/net/outbound-request.js';
import { OutboundError } from '../common/net/outbound-target.js';
import { parseTargetUrl } from './webhook-targets.js';

/** Bytes of an answer read at most; the rest is not waited for. */
export const RESPONSE_READ_BYTES = 16 * 1024;
/** Characters of an answer kept in the attempt log. */
export const RESPONSE_KEPT_CHARS = 1000;

export interface SendOptions {
  /** Which non-public addresses a receiver may have (`OUTBOUND_ALLOW_PRIVATE`). */
  outbound: OutboundConfig;
  /** Bound on the whole attempt: looking the name up, connecting, the answer. */
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
 * POSTs one signed message through the outbound guard: the target is checked again (the name is
 * resolved now, every address checked) and the connection goes to the addresses that were checked;
 * redirects are not followed; the attempt is bounded by `timeoutMs`; at most
 * {@link RESPONSE_READ_BYTES} of the answer are read. Never throws: the result says what happened.
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
  if (!parseTargetUrl(target)) return failed('The target is not an absolute http or https URL.');
  let answer;
  try {
    answer = await outboundRequest(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': USER_AGENT },
        body: Buffer.from(body, 'utf8'),
        timeoutMs: options.timeoutMs,
        maxBytes: RESPONSE_READ_BYTES,
        overflow: 'truncate',
        maxRedirects: 0,
      },
      options.outbound,
    );
  } catch (error) {
    const message = error instanceof OutboundError ? error.message : 'the request could not be sent';
    return failed(`${message[0].toUpperCase()}${message.slice(1)}.`);
  }
  const text = answer.body.toString('utf8').slice(0, RESPONSE_KEPT_CHARS);
  const status = answer.status;
  if (status >= 200 && status < 300) return { statusCode: status, durationMs: Date.now() - started, responseBody: text, error: null };
  if (status >= 300 && status < 400) {
    return failed(`Redirects are not followed (Location: ${(answer.headers.get('location') ?? '').slice(0, 200)}).`, status, text);
  }
  return failed(`The receiver answered ${status}.`, status, text);
}
