/**
 * Support for the hostile-input property suite (test/hostile-input.e2e-spec.ts): a raw HTTP client
 * that sends exactly the bytes it is given, the invariants every answer must satisfy, state
 * snapshots, and fast-check generators of hostile query strings, paths, bodies and headers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as fc from 'fast-check';
import { DataSource } from 'typeorm';
import { API, PUBLIC_URL, type TestApp } from './test-app.js';

export const JSON_TYPE = 'application/json; charset=UTF-8';

// ---------------------------------------------------------------------------------------------
// Raw HTTP client
// ---------------------------------------------------------------------------------------------

export interface HostileRequest {
  method: string;
  /** Path and query as written on the request line (see requestLineSafe). */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: unknown;
  /** Set when the body is not JSON. */
  jsonError?: string;
}

/**
 * Percent-encodes what cannot go raw on a request line and keeps the rest (including `<`, `"`, `%`,
 * `[`) raw. Node's own HTTP parser answers a raw space, control or non-ASCII byte in the request
 * line with a bare `400` before the application sees the request, so those are always encoded.
 */
export function requestLineSafe(path: string): string {
  let out = '';
  for (const ch of path) {
    const code = ch.codePointAt(0) as number;
    out += code >= 0x21 && code <= 0x7e ? ch : pct(ch);
  }
  return out;
}

/** UTF-8 percent-encoding of every byte except RFC 3986 unreserved characters. Lone surrogates become U+FFFD. */
export function pct(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export class RawClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  private port = 0;

  constructor(private readonly server: http.Server) {}

  async start(): Promise<void> {
    if (!this.server.listening) await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  stop(): void {
    this.agent.destroy();
  }

  send(req: HostileRequest): Promise<RawResponse> {
    const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
    const headers: Record<string, string> = { ...(req.headers ?? {}) };
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length'))
      headers['Content-Length'] = String(body.length);
    return new Promise((resolve, reject) => {
      const outgoing = http.request(
        {
          host: '127.0.0.1',
          port: this.port,
          method: req.method,
          path: requestLineSafe(req.path),
          headers,
          agent: this.agent,
          timeout: 20_000,
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json: unknown;
            let jsonError: string | undefined;
            try {
              json = text === '' ? undefined : JSON.parse(text);
              if (text === '') jsonError = 'empty body';
            } catch (error) {
              jsonError = (error as Error).message;
            }
            resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text, json, jsonError });
          });
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error('request timed out after 20 s')));
      outgoing.on('error', reject);
      if (body !== undefined) outgoing.write(body);
      outgoing.end();
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Invariants
// ---------------------------------------------------------------------------------------------

/** Keys whose string values are human text that came from input (titles, descriptions, names). */
const TEXT_KEYS = new Set(['title', 'description', 'excerpt', 'name', 'venue', 'organizer']);
/** Keys holding REST links built by the service (spec §2.4, §9.3). */
const REST_LINK_KEYS = new Set(['rest_url', 'next_rest_url', 'previous_rest_url']);

function clip(text: string, max = 160): string {
  const shown = JSON.stringify(text);
  return shown.length > max ? `${shown.slice(0, max)}…(${text.length} chars)` : shown;
}

function walk(value: unknown, visit: (key: string, value: unknown, path: string) => void, path = '$', key = ''): void {
  visit(key, value, path);
  if (Array.isArray(value)) value.forEach((item, index) => walk(item, visit, `${path}[${index}]`, key));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) walk(v, visit, `${path}.${k}`, k);
  }
}

/**
 * Markup a browser would run: a script element, an event-handler attribute, or a `javascript:` URL
 * in an attribute. Only tags count: text such as `&lt;img onerror=…&gt;` or "see javascript: notes"
 * is inert wherever it is shown, and plain-text fields return such text exactly as sent (spec §7.6).
 * A tag runs from `<` and a letter, `/` or `!` to the next `>` or the end of the text (browsers
 * still parse an unclosed tag).
 */
export function executableMarkup(text: string): string[] {
  const found: string[] = [];
  for (const [tag] of text.matchAll(/<[a-z/!][^>]*>?/gi)) {
    const lower = tag.toLowerCase();
    // Attribute values may hide the scheme behind entities or control characters.
    const decoded = lower
      .replace(/&colon;|&#0*58;?|&#x0*3a;?/g, ':')
      .replace(/&tab;|&newline;|&#0*(9|10|13);?|&#x0*(9|a|d);?|[\0-\x20]/g, '');
    if (/<\/?script/.test(lower)) found.push('a script tag');
    if (/[\s"'/]on[a-z]+\s*=/.test(lower)) found.push('an event-handler attribute');
    if (decoded.includes('javascript:')) found.push('a javascript: URL');
  }
  return found;
}

/** Text fields of a payload that carry an executable payload (spec §7.6: tags removed, HTML sanitised). */
export function unsafeText(body: unknown): string[] {
  const found: string[] = [];
  walk(body, (key, value, path) => {
    if (typeof value !== 'string' || !TEXT_KEYS.has(key)) return;
    for (const what of executableMarkup(value)) found.push(`${path} contains ${what}: ${clip(value)}`);
  });
  return found;
}

/** Strings of an error body that contain `<` (no catalogue message does, so it came from the input). */
export function echoedAngles(body: unknown): string[] {
  const found: string[] = [];
  walk(body, (_key, value, path) => {
    if (typeof value === 'string' && value.includes('<')) found.push(`${path} echoes '<': ${clip(value)}`);
  });
  return found;
}

/** REST links must be built from PUBLIC_URL and form-encoded (spec §2.1, §9.3). */
export function badLinks(body: unknown): string[] {
  const found: string[] = [];
  walk(body, (key, value, path) => {
    if (typeof value !== 'string' || !REST_LINK_KEYS.has(key)) return;
    if (!value.startsWith(PUBLIC_URL)) found.push(`${path} is not built from PUBLIC_URL: ${clip(value)}`);
    if (/[<>"\s]/.test(value)) found.push(`${path} carries unencoded input: ${clip(value)}`);
  });
  return found;
}

/** Invariants of one answer, whatever the request (spec §12.1, §14.1, §7.6). */
export function answerViolations(res: RawResponse): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`5xx status ${res.status}`);
  if (res.headers['content-type'] !== JSON_TYPE)
    problems.push(`Content-Type is ${JSON.stringify(res.headers['content-type'])}, expected ${JSON.stringify(JSON_TYPE)}`);
  if (res.jsonError) {
    problems.push(`body is not JSON (${res.jsonError}): ${clip(res.text)}`);
    return problems;
  }
  const ok = res.status >= 200 && res.status < 300;
  if (!ok) {
    const body = res.json as Record<string, unknown> | null;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      problems.push(`error body is not an object: ${clip(res.text)}`);
    } else {
      const keys = Object.keys(body);
      if (JSON.stringify(keys) !== JSON.stringify(['code', 'message', 'data']))
        problems.push(`error keys are ${JSON.stringify(keys)}, expected ["code","message","data"]`);
      if (typeof body.code !== 'string' || body.code === '') problems.push(`error code is ${JSON.stringify(body.code)}`);
      if (typeof body.message !== 'string') problems.push(`error message is ${JSON.stringify(body.message)}`);
      const data = body.data as Record<string, unknown> | null;
      if (data === null || typeof data !== 'object' || Array.isArray(data)) problems.push(`error data is ${JSON.stringify(data)}`);
      else if (data.status !== res.status)
        problems.push(`data.status is ${JSON.stringify(data.status)} but the HTTP status is ${res.status}`);
      problems.push(...echoedAngles(body));
    }
  }
  problems.push(...unsafeText(res.json));
  if (ok) problems.push(...badLinks(res.json));
  const location = res.headers.location;
  if (location !== undefined && !String(location).startsWith(PUBLIC_URL))
    problems.push(`Location header not built from PUBLIC_URL: ${clip(String(location))}`);
  return problems;
}

export function describeRequest(req: HostileRequest): string {
  const body = req.body === undefined ? '' : ` body=${clip(Buffer.isBuffer(req.body) ? req.body.toString('latin1') : req.body, 400)}`;
  return `${req.method} ${clip(req.path, 400)} headers=${clip(JSON.stringify(req.headers ?? {}), 400)}${body}`;
}

export function describeResponse(res: RawResponse): string {
  return `${res.status} content-type=${JSON.stringify(res.headers['content-type'])} body=${clip(res.text, 600)}`;
}

// ---------------------------------------------------------------------------------------------
// State snapshots
// ---------------------------------------------------------------------------------------------

export type Kind = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';
export const KINDS: Kind[] = ['events', 'venues', 'organizers', 'categories', 'tags'];
const ALL_STATUSES = 'publish,future,draft,pending,private,trash';

export interface Snapshot {
  db: Record<string, string>;
  api: Record<string, string>;
}

/**
 * Before/after pictures of the stored data: every table row (except the last-use time of
 * application passwords, which authentication may touch), plus what an administrator sees of the
 * addressed collection (every status) and item.
 */
export class StateProbe {
  private readonly dataSource: DataSource;
  private readonly tables: string[];

  constructor(
    private readonly t: TestApp,
    private readonly adminAuth: string,
  ) {
    this.dataSource = t.app.get(DataSource);
    this.tables = [...new Set(this.dataSource.entityMetadatas.map((meta) => meta.tableName))]
      // bookkeeping of authentication, written by design on login attempts: last use of a password,
      // each failed login (brute-force protection) and the credentials version a failure moves
      .filter((name) => name !== 'app_passwords' && name !== 'login_failures' && name !== 'credentials_version')
      // bookkeeping of the change log, moved after earlier writes' commits by background work (the
      // sequencer numbering them, the webhook dispatcher fanning them out): not data a request changes
      .filter((name) => name !== 'change_sequence')
      .sort();
  }

  async db(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const table of this.tables) {
      const rows = await this.dataSource.query<Array<Record<string, unknown>>>(`SELECT * FROM ${this.dataSource.driver.escape(table)}`);
      // a change's place in commit order is given after its commit, in the background (see above)
      const kept = table === 'changes' ? rows.map(({ seq: _seq, ...row }) => row) : rows;
      out[table] = JSON.stringify(kept.map((row) => JSON.stringify(row)).sort());
    }
    return out;
  }

  listPath(kind: Kind): string {
    if (kind === 'categories' || kind === 'tags') return `${API}/${kind}?hide_empty=0&per_page=50`;
    const dates = kind === 'events' ? '&starts_after=1000-01-02' : '';
    return `${API}/${kind}?status=${ALL_STATUSES}&per_page=50${dates}`;
  }

  async api(kinds: Kind[], itemPaths: string[]): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const path of [...kinds.map((kind) => this.listPath(kind)), ...itemPaths]) {
      const res = await this.t.http().get(path).set('Authorization', this.adminAuth);
      out[path] = `${res.status} ${res.text}`;
    }
    return out;
  }

  async take(kinds: Kind[], itemPaths: string[]): Promise<Snapshot> {
    return { db: await this.db(), api: await this.api(kinds, itemPaths) };
  }
}

/** Differences between two snapshots, one line per changed table or admin view. */
export function snapshotChanges(before: Snapshot, after: Snapshot): string[] {
  const changes: string[] = [];
  const compare = (label: string, a: Record<string, string>, b: Record<string, string>) => {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (a[key] === b[key]) continue;
      const x = a[key] ?? '';
      const y = b[key] ?? '';
      let at = 0;
      while (at < x.length && at < y.length && x[at] === y[at]) at++;
      changes.push(
        `${label} ${key} changed at char ${at}: before …${clip(x.slice(Math.max(0, at - 60), at + 140), 260)} after …${clip(y.slice(Math.max(0, at - 60), at + 140), 260)}`,
      );
    }
  };
  compare('table', before.db, after.db);
  compare('admin view', before.api, after.api);
  return changes;
}

/** Keys added to Object.prototype by a request (prototype pollution through qs, JSON or merging). */
export function prototypeKeys(): string[] {
  return Object.getOwnPropertyNames(Object.prototype).sort();
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

export const SQL_FRAGMENTS = [
  "' OR 1=1 --",
  "' OR '1'='1",
  '"; DROP TABLE events; --',
  "'; DROP TABLE venues; --",
  '1; DROP TABLE categories',
  '1 OR 1=1',
  '1) OR (1=1',
  "' UNION SELECT login, password_hash FROM users --",
  '0 UNION SELECT 1,2,3',
  "admin'--",
  "%' --",
  "\\'; --",
  "1' AND '1'='2",
  '`id`',
  '" OR ""="',
  "' || (SELECT 1) || '",
  "'; SELECT sqlite_version(); --",
  '%',
  '_',
  '%_%',
  '\\',
  "'",
  '"',
  '/*',
  '*/ OR 1=1 /*',
];

/** Complete HTML payloads: every dangerous needle sits inside a tag or an entity-escaped tag. */
export const SCRIPT_PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<script src=//evil.example/x.js',
  '<img src=x onerror=alert(1)>',
  '<IMG SRC=x OnError=alert(1)>',
  '<svg/onload=alert(1)>',
  '<a href="javascript:alert(1)">click</a>',
  '<a href="JaVaScRiPt:alert(1)">click</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<<script>script>alert(1)<</script>/script>',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '&lt;img src=x onerror=alert(1)&gt;',
  '&amp;lt;script&amp;gt;alert(1)',
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  '<iframe src="javascript:alert(1)"></iframe>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<!--<script>-->alert(1)',
  '<body onload=alert(1)>',
  '<p>ok</p><script>document.cookie</script>',
  '<img src="x" onerror="alert(1)"/>',
  '<a href=" javascript:alert(1)">x</a>',
  '<form action="javascript:alert(1)"><input type=submit></form>',
  '<object data="javascript:alert(1)"></object>',
  '\u003cscript\u003ealert(1)\u003c/script\u003e',
];

export const WEIRD_STRINGS = [
  '',
  ' ',
  '\t\n \r',
  '\u0000',
  'a\u0000b',
  '\u202eevil',
  '\ufeffbom',
  '\u200b',
  'é',
  'Café Ünter',
  '😀',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'e\u0301',
  '👨‍👩‍👧‍👦',
  'ＡＢＣ１２３',
  '١٢٣',
  '日本語のタイトル',
  '\ud800',
  'x\udfffy',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  'true',
  'false',
  '[]',
  '{}',
  '0',
  '-0',
  '-1',
  '1.5',
  '1e3',
  '0x10',
  '007',
  '99999999999999999999999',
  '-99999999999999999999',
  '18446744073709551616',
  '2147483648',
  '${7*7}',
  '{{7*7}}',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%00',
  '%2e%2e%2f',
  'publish',
  'any',
  'trash',
  'future',
  'draft,pending',
  'publish, , ,',
  ',,,',
  '1,2,3',
  'now',
  'tomorrow 9am',
  '@-99999999999',
  '@99999999999999',
  '2027-02-30',
  '2027-13-01 25:61:61',
  '0000-00-00 00:00:00',
  '9999-12-31 23:59:59',
  '10000-01-01',
  '0999-12-31',
  'Europe/Nowhere',
  'UTC+99',
  'UTC+14',
  'UTC-12:45',
  'http://',
  'https://example.com/a b',
  'ftp://example.com/x',
  'mailto:x@example.com',
  'name=value&other=1',
  'a[b]=c',
];

const leafString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SQL_FRAGMENTS) },
  { weight: 3, arbitrary: fc.constantFrom(...SCRIPT_PAYLOADS) },
  { weight: 4, arbitrary: fc.constantFrom(...WEIRD_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  {
    weight: 1,
    arbitrary: fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 3 }),
  },
  {
    weight: 1,
    arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 4 }),
  },
);

/** Strings around the limits of spec §7.6 (200, 255, 500, 1000, 65 535 characters). */
export const longString = fc
  .tuple(fc.constantFrom(201, 256, 501, 1001, 4000, 65_536), fc.constantFrom('a', 'é', '😀', '<b>x</b>', ' ', "'", 'a '))
  .map(([n, unit]) => unit.repeat(Math.ceil(n / unit.length)).slice(0, Math.max(n, unit.length)))
  .map((s) => (s.trim() === '' ? ` ${s}x` : s));

/** Junk without the long strings (for headers, which Node limits to 16 KiB in all). */
export const shortJunk: fc.Arbitrary<string> = leafString;

export const junkString: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: leafString },
  { weight: 2, arbitrary: fc.tuple(leafString, leafString).map(([a, b]) => `${a}${b}`) },
  { weight: 1, arbitrary: longString },
);

// 9007199254740993 is sent on purpose: a number JSON clients cannot hold exactly
// eslint-disable-next-line no-loss-of-precision
const NUMBERS = [0, -0, -1, 1, 1.5, -2147483649, 2147483648, 4294967296, 9007199254740993, 1e21, 1e308, -1e308, 5e-324, 0.1 + 0.2];

const leafValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.boolean() },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBERS) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 6, arbitrary: junkString },
);

/** Nesting that alternates objects and arrays, `depth` levels deep. */
export function nest(depth: number, leaf: unknown = 'deep'): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { a: value, id: 1 } : [value];
  return value;
}

export const JUNK_KEYS = [
  '',
  ' ',
  'id',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '$where',
  '$ne',
  'a.b',
  'a[b]',
  '[]',
  '😀',
  'title ',
  'TITLE',
  '_method',
  'password',
  'context',
  'force',
];

const junkKey = fc.oneof(fc.constantFrom(...JUNK_KEYS), fc.string({ maxLength: 6 }));

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 10, arbitrary: leafValue },
  { weight: 2, arbitrary: longString },
  { weight: 3, arbitrary: fc.array(leafValue, { maxLength: 5 }) },
  { weight: 3, arbitrary: fc.dictionary(junkKey, leafValue, { maxKeys: 4 }) },
  {
    weight: 2,
    arbitrary: fc.record(
      { id: leafValue, venue: leafValue, organizer: leafValue, name: leafValue, city: leafValue, email: leafValue },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 3, max: 80 }), leafValue).map(([depth, leaf]) => nest(depth, leaf)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 101, max: 3000 }), fc.constantFrom<'int' | 'string' | 'object'>('int', 'string', 'object'))
      .map(([n, kind]) =>
        Array.from({ length: n }, (_, i) => (kind === 'int' ? i + 1 : kind === 'string' ? `term-${i}` : { id: i + 1, organizer: `O${i}` })),
      ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** Write fields of spec §11 per kind, plus read-only fields (§7.5) and inputs ignored elsewhere. */
export const WRITE_FIELDS: Record<Kind, string[]> = {
  events: [
    'title',
    'description',
    'excerpt',
    'slug',
    'status',
    'author',
    'date',
    'date_utc',
    'timezone',
    'all_day',
    'start_date',
    'end_date',
    'image',
    'cost',
    'website',
    'show_map',
    'show_map_link',
    'hide_from_listings',
    'sticky',
    'featured',
    'categories',
    'tags',
    'venue',
    'organizer',
    'post_parent',
    'post_password',
    'custom_fields',
    'password',
  ],
  venues: [
    'venue',
    'description',
    'excerpt',
    'slug',
    'status',
    'author',
    'date',
    'date_utc',
    'show_map',
    'show_map_link',
    'address',
    'city',
    'country',
    'province',
    'state',
    'zip',
    'phone',
    'stateprovince',
    'stateProvince',
    'website',
    'image',
    'geo_lat',
    'geo_lng',
    'post_password',
  ],
  organizers: [
    'organizer',
    'description',
    'excerpt',
    'slug',
    'status',
    'author',
    'date',
    'date_utc',
    'phone',
    'website',
    'email',
    'image',
    'post_password',
  ],
  categories: ['name', 'description', 'slug', 'parent'],
  tags: ['name', 'description', 'slug', 'parent'],
};

export const READ_ONLY_FIELDS = [
  'id',
  'global_id',
  'global_id_lineage',
  'url',
  'rest_url',
  'modified',
  'modified_utc',
  'utc_start_date',
  'utc_end_date',
  'start_date_details',
  'timezone_abbr',
  'cost_details',
  'json_ld',
  'count',
  'taxonomy',
  'meta',
  'urls',
  '_links',
  'force',
  'context',
  '_method',
];

/** One value of each wrong type for the field sweep: object, array, deep nesting, null, boolean, out-of-range numbers. */
export const WRONG_TYPES: unknown[] = [
  { a: '<script>alert(1)</script>', id: 1 },
  Array.from({ length: 150 }, (_, i) => i + 1),
  nest(40, "' OR 1=1 --"),
  null,
  true,
  1e308,
  -2147483649,
];

/** Longer than every text limit of spec §7.6 (65 535 characters), with a payload at the end. */
export const TOO_LONG = `${'x'.repeat(65_536)}<img src=x onerror=alert(1)>`;

/** Every write field of a kind (spec §11 tables) with the value `valueFor(index)`, on top of a valid body or alone. */
export function fieldSweep(kind: Kind, withBase: boolean, valueFor: (index: number) => unknown): Array<Record<string, unknown>> {
  return WRITE_FIELDS[kind].map((field, index) => {
    const body: Record<string, unknown> = withBase ? validBody(kind, `sweep-${field}`) : {};
    body[field] = valueFor(index);
    return body;
  });
}

/** A valid create body of each kind; hostile fields are layered on top of it. */
export function validBody(kind: Kind, tag: string): Record<string, unknown> {
  switch (kind) {
    case 'events':
      return { title: `Hostile base ${tag}`, start_date: '2027-05-01 10:00:00', end_date: '2027-05-01 11:00:00' };
    case 'venues':
      return { venue: `Hostile venue ${tag}` };
    case 'organizers':
      return { organizer: `Hostile organizer ${tag}` };
    default:
      return { name: `Hostile term ${tag}` };
  }
}

/** A JSON body: maybe a valid base, then one to five fields of the kind (or read-only/junk keys) with hostile values. */
export function hostileBody(kind: Kind): fc.Arbitrary<Record<string, unknown>> {
  const field = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...WRITE_FIELDS[kind]) },
    { weight: 1, arbitrary: fc.constantFrom(...READ_ONLY_FIELDS) },
    { weight: 1, arbitrary: junkKey },
  );
  return fc
    .tuple(
      fc.boolean(),
      fc.uniqueArray(fc.tuple(field, hostileValue), { minLength: 1, maxLength: 5, selector: ([key]) => key }),
      fc.nat(1_000_000),
    )
    .map(([withBase, pairs, tag]) => {
      const body: Record<string, unknown> = withBase ? validBody(kind, String(tag)) : {};
      for (const [key, value] of pairs) Object.defineProperty(body, key, { value, enumerable: true, writable: true, configurable: true });
      return body;
    });
}

// --- query strings ---------------------------------------------------------------------------

export const QUERY_KEYS = [
  'page',
  'per_page',
  'search',
  'status',
  'categories',
  'tags',
  'venue',
  'organizer',
  'include',
  'exclude',
  'order',
  'orderby',
  'hide_empty',
  'parent',
  'post',
  'event',
  'slug',
  'start_date',
  'end_date',
  'starts_before',
  'starts_after',
  'ends_before',
  'ends_after',
  'strict_dates',
  'featured',
  'geoloc',
  'geoloc_lat',
  'geoloc_lng',
  'post_parent',
  'ticketed',
  'password',
  'has_events',
  'only_with_upcoming',
  'namespace',
  'context',
  '_method',
  '_fields',
  '_embed',
  '_envelope',
  '_jsonp',
  'rest_route',
  'id',
  'force',
];

export const WEIRD_QUERY_KEYS = [
  '',
  '[]',
  '[',
  ']',
  '[[',
  'page[]',
  'page[0]',
  'page[a]',
  'per_page[gt]',
  'status[]',
  'status[][]',
  'status[0][1]',
  'categories[100000]',
  'include[999]',
  'include[]',
  'tags[][x]',
  'a[b][c][d][e][f][g][h]',
  '__proto__',
  '__proto__[polluted]',
  'constructor[prototype][polluted]',
  'search[$ne]',
  'search[constructor]',
  'status[constructor]',
  'x[constructor]',
  'x[__proto__]',
  'toString',
  'hasOwnProperty',
  'ＰＡＧＥ',
  'PAGE',
  'Per_Page',
  'päge',
  'page\u0000',
  'search\t',
  'a.b',
  'venue[id]',
  'organizer[0][id]',
];

const PERCENT_JUNK = [
  '%',
  '%%',
  '%z',
  '%zz',
  '%2',
  '%u0041',
  '%C0%80',
  '%C0%AE',
  '%ED%A0%80',
  '%FF%FE',
  '%00',
  '%0A',
  '%0D%0A',
  '%E0%A4%A',
  '%25%32%35',
  '%F0%9F%98',
];

export const queryValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: junkString },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '1',
      '2',
      '50',
      '51',
      '100',
      '0',
      '-1',
      '-50',
      '99999999999999999999',
      '1e3',
      '1.0',
      ' 1',
      '1 ',
      '+1',
      '0x10',
      '１',
      '٣',
    ),
  },
  { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'asc',
      'DESC',
      'sideways',
      'name',
      'count',
      'include_slugs',
      'term_group',
      'id;',
      'name desc',
      '1',
      'yes',
      'on',
      'disabled',
    ),
  },
);

/** Keeps request heads below Node's 16 KiB limit (longer ones never reach the service). */
export const MAX_QUERY_BYTES = 10_000;

type Encoding = 'encoded' | 'raw' | 'junk';

function encodePiece(text: string, how: Encoding, junk: string): string {
  if (how === 'encoded') return pct(text);
  if (how === 'raw') return requestLineSafe(text);
  return `${pct(text)}${junk}`;
}

const queryPair = fc.record({
  key: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...QUERY_KEYS) },
    { weight: 2, arbitrary: fc.constantFrom(...WEIRD_QUERY_KEYS) },
    { weight: 1, arbitrary: junkString },
  ),
  value: queryValue,
  noEquals: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  keyHow: fc.constantFrom<Encoding>('encoded', 'raw', 'raw', 'junk'),
  valueHow: fc.constantFrom<Encoding>('encoded', 'encoded', 'raw', 'junk'),
  junk: fc.constantFrom(...PERCENT_JUNK),
  repeat: fc.integer({ min: 1, max: 3 }),
});

/** A query string (with its leading `?`, or empty) made of hostile keys and values. */
export const queryString: fc.Arbitrary<string> = fc
  .tuple(fc.array(queryPair, { maxLength: 7 }), fc.constantFrom('&', '&', '&', '&&', ';', '&amp;'), fc.boolean())
  .map(([pairs, separator, leading]) => {
    if (pairs.length === 0) return leading ? '?' : '';
    const parts: string[] = [];
    for (const p of pairs) {
      const key = encodePiece(p.key, p.keyHow, p.junk);
      const value = encodePiece(p.value, p.valueHow, p.junk);
      for (let i = 0; i < p.repeat; i++) parts.push(p.noEquals ? key : `${key}=${value}`);
    }
    // Node answers a request head above 16 KiB with a bare 431 before the application sees it.
    let query = `?${leading ? separator : ''}`;
    for (const [index, part] of parts.entries()) {
      if (query.length + part.length > MAX_QUERY_BYTES) break;
      query += `${index === 0 ? '' : separator}${part}`;
    }
    return query;
  });

// --- path segments ---------------------------------------------------------------------------

export const JUNK_SEGMENTS = [
  '0',
  '000',
  '-1',
  '1e3',
  '0x1F',
  '1.5',
  '%201',
  '1%20',
  '%00',
  '1%00',
  '..%2F..%2Fetc%2Fpasswd',
  '..%2f',
  '%2e%2e',
  '%2E',
  '%2F',
  '%5C',
  '..',
  '.',
  '99999999999999999999999',
  '9'.repeat(100),
  '1'.repeat(400),
  '18446744073709551617',
  '2147483648',
  '4294967296',
  '%ff',
  '%',
  '%zz',
  '%E2%80%AE',
  '%C0%AE%C0%AE',
  '\u00e9',
  'caf\u00e9',
  '%F0%9F%98%80',
  'by-slug',
  'by-slug%2F',
  '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
  "'%20OR%201=1%20--",
  '%22%3B%20DROP%20TABLE%20events%3B%20--',
  '%EF%BC%91',
  '%D9%A3',
  'a'.repeat(3000),
];

/** A hostile id or slug segment, already as it goes on the request line. */
export function pathSegment(realIds: string[], realSlugs: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...realIds) },
    { weight: 1, arbitrary: fc.constantFrom(...realIds).map((id) => `00${id}`) },
    { weight: 2, arbitrary: fc.constantFrom(...realSlugs) },
    { weight: 4, arbitrary: fc.constantFrom(...JUNK_SEGMENTS) },
    { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: 10n ** 60n }).map(String) },
    { weight: 2, arbitrary: junkString.filter((s) => s.length > 0 && s.length < 600).map((s) => pct(s)) },
  );
}

// --- form and multipart bodies ---------------------------------------------------------------

export const FORM_KEYS = [
  'title',
  'title[]',
  'title[0]',
  'title[a]',
  'title[',
  'venue',
  'venue[venue]',
  'venue[id]',
  'venue[0][venue]',
  'venue[0][id]',
  'venue[city][x]',
  'venue[__proto__][x]',
  'organizer',
  'organizer[]',
  'organizer[0][organizer]',
  'organizer[1][id]',
  'organizer[999999]',
  'organizer[0][email][]',
  'categories',
  'categories[]',
  'categories[200]',
  'categories[a][b]',
  'tags[]',
  'tags[][]',
  'a[b][c][d][e][f][g][h]',
  '__proto__[polluted]',
  'constructor[prototype][polluted]',
  'venue[constructor]',
  'junk[constructor]',
  'name[constructor]',
  '[]',
  '',
  'name',
  'name[]',
  'description[x]',
  'parent',
  'parent[]',
  'start_date',
  'start_date[]',
  'end_date',
  'status[]',
  'cost[]',
  'cost[a]',
  'custom_fields[x]',
  'custom_fields[__proto__]',
  'slug[]',
  'geo_lat',
  'geo_lng[]',
  'show_map',
  'all_day[]',
  'author',
  'post_parent',
  'id',
  '_method',
];

const formPair = fc.tuple(
  fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...FORM_KEYS) }, { weight: 1, arbitrary: junkString }),
  fc.oneof({ weight: 5, arbitrary: queryValue }, { weight: 1, arbitrary: longString }),
  fc.constantFrom<Encoding>('encoded', 'encoded', 'raw', 'junk'),
  fc.constantFrom(...PERCENT_JUNK),
);

/** `application/x-www-form-urlencoded` text with bracket notation, repeated keys and percent junk. */
export const formBody: fc.Arbitrary<string> = fc
  .tuple(fc.array(formPair, { minLength: 1, maxLength: 10 }), fc.boolean())
  .map(([pairs, withBase]) => {
    const parts = pairs.map(
      ([key, value, how, junk]) => `${encodePiece(key, how === 'junk' ? 'raw' : how, junk)}=${encodePiece(value, how, junk)}`,
    );
    if (withBase)
      parts.unshift(
        'title=Form+base&start_date=2027-05-01+10%3A00&end_date=2027-05-01+11%3A00&venue[venue]=Form+venue&name=Form+term&organizer[0][organizer]=Form+org',
      );
    return parts.join('&');
  });

/** A multipart body (sometimes broken) and the boundary it declares. */
export const multipartBody: fc.Arbitrary<{ body: string; contentType: string }> = fc
  .tuple(fc.array(formPair, { minLength: 1, maxLength: 6 }), fc.constantFrom('ok', 'truncated', 'no-boundary', 'wrong-boundary', 'garbage'))
  .map(([pairs, variant]) => {
    const boundary = 'hostileBoundary7MA4YWxkTrZu0gW';
    const parts = pairs.map(
      ([key, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${key.replace(/["\r\n]/g, '')}"\r\n\r\n${value}\r\n`,
    );
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="../../x.php"\r\nContent-Type: application/x-php\r\n\r\n<?php system($_GET[1]); ?>\r\n`,
    );
    let body = `${parts.join('')}--${boundary}--\r\n`;
    let contentType = `multipart/form-data; boundary=${boundary}`;
    if (variant === 'truncated') body = body.slice(0, Math.floor(body.length / 2));
    if (variant === 'no-boundary') contentType = 'multipart/form-data';
    if (variant === 'wrong-boundary') contentType = 'multipart/form-data; boundary=somethingElse';
    if (variant === 'garbage') body = `\r\n--\r\n${body.replace(/\r\n/g, '\n')}`;
    return { body, contentType };
  });

// --- malformed JSON --------------------------------------------------------------------------

export const MALFORMED_JSON: Array<string | Buffer> = [
  '{',
  '}',
  '{"title":}',
  '{"title": "x",}',
  "{'title': 'x'}",
  '{title: "x"}',
  '[]',
  '[{"title":"x"}]',
  '"title"',
  'null',
  'true',
  '123',
  'NaN',
  '{"title": NaN}',
  '{"title": undefined}',
  '{"start_date": 1e999}',
  '\ufeff{"title":"bom"}',
  '{"title":"\\ud800"}',
  '{"title":"\\u0000"}',
  '{"title":"x"}{"title":"y"}',
  '{"title":"x"} trailing',
  '{"__proto__":{"polluted":"yes"},"title":"proto"}',
  '{"constructor":{"prototype":{"polluted":"yes"}},"name":"ctor"}',
  '{"title":"a","title":"<script>alert(1)</script>"}',
  `{"a":${'['.repeat(5000)}`,
  `{"a":${'['.repeat(200)}${']'.repeat(200)}}`,
  `{"a":${'{"a":'.repeat(100)}1${'}'.repeat(100)}}`,
  '\u0000',
  ' \n\t ',
  '{"title": "x", "status": {"$ne": null}}',
  '{"name": {"toString": 1}}',
  Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
  Buffer.from('{"title":"\xC0\xAF"}', 'latin1'),
  Buffer.from([0x7b, 0x22, 0x74, 0x69, 0x74, 0x6c, 0x65, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]),
];

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=iso-8859-1',
  'application/json; charset=utf-16le',
  'application/json;;;;',
  'application/json, text/plain',
  'application/vnd.api+json',
  'application/problem+json',
  'application/+json',
  'text/json',
  'text/plain',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-8',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=x',
  '*/*',
  'application/*',
  ';',
  '',
  'json',
  'application/octet-stream',
  'image/png',
  'application/json\u00e9',
];

// --- headers ---------------------------------------------------------------------------------

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** Authorization values that are not the credentials of an existing user (never valid). */
export const BAD_AUTHORIZATIONS = [
  'Basic',
  'Basic ',
  'Basic ====',
  'Basic !!!',
  `Basic ${b64('no-colon-here')}`,
  `Basic ${b64(':')}`,
  `Basic ${b64(':password')}`,
  `Basic ${b64('admin:')}`,
  `Basic ${b64("' OR 1=1 --:x")}`,
  `Basic ${b64("admin' --:whatever")}`,
  `Basic ${b64('<script>alert(1)</script>:pw')}`,
  `Basic ${b64('ünïcødé:pässwörd')}`,
  `Basic ${b64('\u0000:\u0000')}`,
  `Basic ${b64('nobody:nothing')}`,
  `Basic ${b64(`${'a'.repeat(300)}:${'b'.repeat(300)}`)}`,
  `Basic ${'A'.repeat(6000)}`,
  'Bearer abc.def.ghi',
  'Digest username="admin"',
  'Negotiate YIIB',
  ', Basic x',
  'Basic\tYWRtaW46',
  'basic',
  `Basic ${b64('admin:admin-password-1')}x`,
  `Basic ${b64('admin:admin-password-1')} ${b64('admin:admin-password-1')}`,
  'Basic \u00e9\u00e8',
  'null',
  '<script>',
];

export const METHOD_OVERRIDES = [
  'PUT',
  'patch',
  'DELETE',
  'delete',
  'Delete ',
  ' DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'TRACE',
  'CONNECT',
  'POST',
  'PUT, DELETE',
  'DELETE\t',
  '',
  'x'.repeat(1000),
  '<script>',
  "'; DROP TABLE events; --",
  'D\u00c9LETE',
];
