import { createHash, timingSafeEqual } from 'node:crypto';

/** Whether a `password` parameter unlocks an item: exact, case-sensitive, compared in constant time. */
export function passwordUnlocks(stored: string | null, given: string | undefined): boolean {
  if (!stored || given === undefined) return false;
  const a = createHash('sha256').update(stored).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b) && stored === given;
}

/** Replacement values of redacted keys (spec §5.6); keys not listed keep their values. */
const REDACTED: Record<string, unknown> = {
  description: '',
  excerpt: '',
  cost: '',
  website: '',
  image: false,
  all_day: null,
  show_map: null,
  show_map_link: null,
  hide_from_listings: null,
  sticky: null,
  featured: null,
  categories: [],
  tags: [],
  custom_fields: [],
  address: '',
  city: '',
  country: '',
  province: '',
  state: '',
  zip: '',
  stateprovince: '',
  phone: '',
  email: '',
  geo_lat: 0,
  geo_lng: 0,
};

/**
 * The redacted form of an item object: each present key of the list gets its replacement in place.
 * `extra` adds replacements for one kind (an event's `venue`, `organizer`, `cost_details`). The
 * response classes admit the replacement values (blank texts, `false` image, `null` flags).
 */
export function redact<T extends object>(payload: T, extra: Partial<T> = {}): T {
  const replacements: Record<string, unknown> = { ...REDACTED, ...extra };
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload)) {
    result[key] = Object.prototype.hasOwnProperty.call(replacements, key) ? structuredClone(replacements[key]) : value;
  }
  return result as T;
}
