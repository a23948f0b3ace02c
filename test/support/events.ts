import { DateTime } from 'luxon';
import type { Response } from 'supertest';
import { ADMIN, API, basic, PUBLIC_URL, type TestApp } from './test-app.js';

/** Keys of an event object in the order of spec §8.2 (without `json_ld`). */
export const EVENT_KEYS = [
  'id',
  'global_id',
  'global_id_lineage',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'rest_url',
  'title',
  'description',
  'excerpt',
  'slug',
  'image',
  'all_day',
  'start_date',
  'start_date_details',
  'end_date',
  'end_date_details',
  'utc_start_date',
  'utc_start_date_details',
  'utc_end_date',
  'utc_end_date_details',
  'timezone',
  'timezone_abbr',
  'cost',
  'cost_details',
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
  'custom_fields',
  'recurrence',
];

export const EMPTY_COST_DETAILS = { currency_symbol: '', currency_code: '', currency_position: '', values: [] };

export const ADMIN_AUTH = basic(ADMIN);

/** `{year, month, day, hour, minutes, seconds}` of a `YYYY-MM-DD HH:MM:SS` string (spec §8.7). */
export function details(wall: string): Record<string, string> {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(wall);
  if (!match) throw new Error(`not a wall time: ${wall}`);
  const [, year, month, day, hour, minutes, seconds] = match;
  return { year, month, day, hour, minutes, seconds };
}

export const eventUrl = (slug: string) => `${PUBLIC_URL}/event/${slug}/`;
export const draftUrl = (id: number) => `${PUBLIC_URL}/?post_type=tribe_events&p=${id}`;
export const eventRestUrl = (id: number) => `${PUBLIC_URL}${API}/events/${id}`;
export const globalId = (id: number) => `calendar.test?id=${id}`;

/** Today in a zone, as `YYYY-MM-DD`, shifted by `days`. */
export function day(zone: string, days = 0): string {
  return DateTime.now().setZone(zone).startOf('day').plus({ days }).toFormat('yyyy-MM-dd');
}

/** The default list window of `GET /events` (spec §9.4): yesterday 00:00:00 to +24 months 23:59:59. */
export function defaultWindow(zone: string): { start: string; end: string } {
  const today = DateTime.now().setZone(zone).startOf('day');
  return {
    start: `${today.minus({ days: 1 }).toFormat('yyyy-MM-dd')} 00:00:00`,
    end: `${today.plus({ months: 24 }).toFormat('yyyy-MM-dd')} 23:59:59`,
  };
}

/** Form encoding as in `rest_url` (space → `+`, `:` → `%3A`, `,` → `%2C`). */
export const formEncode = (value: string) => new URLSearchParams([['x', value]]).toString().slice(2);

/** Current UTC wall time `YYYY-MM-DD HH:MM:SS`. */
export const nowUtcWall = () => new Date().toISOString().slice(0, 19).replace('T', ' ');

/** Seconds between two `YYYY-MM-DD HH:MM:SS` UTC wall times. */
export const secondsBetween = (a: string, b: string) =>
  Math.abs(Date.parse(`${a.replace(' ', 'T')}Z`) - Date.parse(`${b.replace(' ', 'T')}Z`)) / 1000;

export function expectError(res: Response, status: number, code: string, params?: string[]): void {
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
  expect(res.body.data.status).toBe(status);
  if (params) {
    if (code === 'rest_missing_callback_param') expect(res.body.data.params).toEqual(params);
    else expect(Object.keys(res.body.data.params)).toEqual(params);
  }
}

/** A minimal valid event body. */
export function eventBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: 'Plain event', start_date: '2027-04-02 18:00:00', end_date: '2027-04-02 22:00:00', ...extra };
}

export interface EventClient {
  create: (body: Record<string, unknown>, auth?: string | null) => Promise<Response>;
  /** Creates and fails the test unless the answer is 201. */
  make: (body: Record<string, unknown>, auth?: string | null) => Promise<Record<string, any>>;
  update: (
    id: number | string,
    body: Record<string, unknown>,
    auth?: string | null,
    method?: 'post' | 'put' | 'patch',
  ) => Promise<Response>;
  get: (id: number | string, auth?: string | null, query?: string) => Promise<Response>;
  remove: (id: number | string, auth?: string | null) => Promise<Response>;
  list: (query?: string, auth?: string | null) => Promise<Response>;
}

export function eventClient(t: TestApp): EventClient {
  const withAuth = <T extends { set: (name: string, value: string) => T }>(req: T, auth: string | null | undefined): T =>
    auth === null ? req : req.set('Authorization', auth ?? ADMIN_AUTH);
  const client: EventClient = {
    create: async (body, auth) => withAuth(t.http().post(`${API}/events`), auth).send(body),
    make: async (body, auth) => {
      const res = await client.create(body, auth);
      if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    update: async (id, body, auth, method = 'post') => withAuth(t.http()[method](`${API}/events/${id}`), auth).send(body),
    get: async (id, auth = null, query = '') => withAuth(t.http().get(`${API}/events/${id}${query}`), auth),
    remove: async (id, auth) => withAuth(t.http().delete(`${API}/events/${id}`), auth),
    list: async (query = '', auth = null) => withAuth(t.http().get(`${API}/events${query}`), auth),
  };
  return client;
}

/** Strips `json_ld` from an event object and its embedded venue and organizers. */
export function withoutJsonLd(event: Record<string, any>): Record<string, any> {
  const { json_ld: _ignored, ...rest } = event;
  const strip = (item: Record<string, any>) => {
    const { json_ld: _j, ...other } = item;
    return other;
  };
  return {
    ...rest,
    venue: Array.isArray(rest.venue) ? rest.venue : strip(rest.venue),
    organizer: (rest.organizer as Record<string, any>[]).map(strip),
  };
}

/** True when no `json_ld` key appears anywhere in the value. */
export function hasJsonLd(value: unknown): boolean {
  return JSON.stringify(value).includes('"json_ld"');
}
