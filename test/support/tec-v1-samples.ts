import { readFileSync } from 'node:fs';
import { decodeHTML } from 'entities';
import { join } from 'node:path';
import { PUBLIC_URL } from './test-app.js';

/** Recorded answers of the reference's `tec/v1` (`/work/shared/fixtures/tec-v1-samples/`, README there). */
export const TEC_V1_SAMPLES = '/work/shared/fixtures/tec-v1-samples';
export const RECORDED_SITE = 'http://127.0.0.1:8088';
export const ACKNOWLEDGEMENT =
  'I understand that this endpoint is experimental and may change in a future release without maintaining backward compatibility. I also understand that I am using this endpoint at my own risk, while support is not provided for it.';

export interface RecordedRequest {
  name: string;
  method: string;
  url_path_and_query: string;
  auth: 'anon' | 'admin' | 'bad-password';
  ack: 'sent' | 'none' | 'wrong';
  body?: unknown;
  body_raw?: string;
  /** `{id:<entry name>}` where the id of a record created earlier in the run goes. */
  url_template?: string;
  body_template?: unknown;
  status: number;
}

export const recordedRequests = (): RecordedRequest[] =>
  JSON.parse(readFileSync(join(TEC_V1_SAMPLES, 'index.json'), 'utf8')) as RecordedRequest[];

/** A recorded body with the recorded site's URLs written as this test app's. */
export function recordedBody(name: string): unknown {
  const text = readFileSync(join(TEC_V1_SAMPLES, `${name}.json`), 'utf8');
  return JSON.parse(text.split(RECORDED_SITE.replace(/\//g, '\\/')).join(PUBLIC_URL.replace(/\//g, '\\/')));
}

/** The recorded response headers, names lower-cased (the status line left out). */
export function recordedHeaders(name: string): Record<string, string> {
  const lines = readFileSync(join(TEC_V1_SAMPLES, `${name}.headers`), 'utf8')
    .split('\r\n')
    .slice(1);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).toLowerCase()] = line
        .slice(colon + 1)
        .trim()
        .split(RECORDED_SITE)
        .join(PUBLIC_URL);
  }
  return headers;
}

/** Clock-dependent fields (README, "Volatile"); the seeded records' dates differ between the two recordings too. */
const VOLATILE = new Set([
  'date',
  'date_gmt',
  'modified',
  'modified_gmt',
  'is_past',
  'is_now',
  'starts_this_week',
  'ends_this_week',
  'this_week_duration',
  'happens_this_week',
  'schedule_details',
  'short_schedule_details',
]);

/** Texts are answered as stored, like v1 here: no entity escaping or curly quotes of the reference's texturizer. */
export const plainText = (text: string) => decodeHTML(text).replace(/[‘’]/g, "'").replace(/[“”]/g, '"');

/**
 * An answer as the comparisons see it: volatile fields out, texts plain, titles without tags (v1
 * strips them), the zones of `dates` out (PHP names a zone for a fixed offset: UTC+5.5 →
 * Asia/Kolkata), `duration` a string (the reference writes some as numbers), no slug for drafts
 * and pending records (they have none at the reference; here they get one, as in v1).
 */
export function normalized(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return plainText(value);
  if (Array.isArray(value)) return value.map((item) => normalized(item, key));
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
    if (VOLATILE.has(name)) continue;
    if (name === 'dates' && item !== null && typeof item === 'object') {
      const dates = Object.entries(item as Record<string, Record<string, unknown>>);
      result[name] = Object.fromEntries(dates.map(([at, { timezone: _zone, ...date }]) => [at, date]));
    } else if (key === 'title' && name === 'rendered') result[name] = plainText((item as string).replace(/<[^>]*>/g, ''));
    else if (name === 'duration' && typeof item === 'number') result[name] = String(item);
    else result[name] = normalized(item, name);
  }
  if (['draft', 'pending'].includes(result.status as string)) delete result.slug;
  return result;
}

/** The `data.details` of a recorded `rest_invalid_param` as ours must give them (messages are ours). */
export function expectedDetails(details: Record<string, { code: string; data: { status: number; argument: string } }>): unknown {
  return Object.fromEntries(
    Object.entries(details).map(([param, detail]) => [
      param,
      {
        code: detail.code,
        message: expect.any(String) as unknown,
        // the reference names the argument of an array's items `example`: here the argument itself
        data: {
          status: detail.data.status,
          argument: detail.data.argument === 'example' ? param : detail.data.argument,
          details: expect.any(String) as unknown,
        },
      },
    ]),
  );
}
