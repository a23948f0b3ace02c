// The answers the yardsticks serve from memory (bench/memory-server.mjs, bench/framework-floor.mjs):
// the service's own answers to the bench's requests, taken once by the driver (bench/bench.mjs) and
// handed over in a JSON file:
//
//   {"<route>": {"status": 200, "headers": {"content-type": "...", "etag": "...", ...}, "body": "<base64>"}, ...}
//
// Routes: list (GET /events), single (GET /events/<id>), create (POST /events),
// update (POST /events/<id>), trash (DELETE /events/<id>), all under the API's prefix.
import { readFileSync } from 'node:fs';

export const API_PREFIX = '/wp-json/tribe/events/v1';

/** Headers of the service's answer that belong to the connection or are made per answer, not kept. */
const PER_ANSWER = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** The answer's status, headers and body as the file keeps them (what the driver writes). */
export async function answerOf(response) {
  const headers = {};
  for (const [name, value] of response.headers) if (!PER_ANSWER.has(name)) headers[name] = value;
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()).toString('base64') };
}

/** The answers of the file named by BYTES_FILE: route -> { status, headers, body (Buffer), etag }. */
export function loadAnswers(file = process.env.BYTES_FILE) {
  const answers = new Map();
  for (const [route, answer] of Object.entries(JSON.parse(readFileSync(file, 'utf8'))))
    answers.set(route, { ...answer, body: Buffer.from(answer.body, 'base64'), etag: answer.headers.etag ?? null });
  return answers;
}

/** The route of a request (method and path), or undefined. */
export function routeOf(method, url) {
  const path = url.split('?')[0];
  if (path === `${API_PREFIX}/events`) return { GET: 'list', POST: 'create' }[method];
  if (/^\/wp-json\/tribe\/events\/v1\/events\/\d+$/.test(path)) return { GET: 'single', POST: 'update', DELETE: 'trash' }[method];
  return undefined;
}
