import { readFileSync } from 'node:fs';
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
