import type { ApiPropertyOptions } from '@nestjs/swagger';
import { Invalid, type ParamParser } from '../../common/validation/param.js';
import { MAX_LIST_ITEMS, typeErrorFor } from '../../common/validation/parsers.js';
import { rowIdOf } from '../../common/sql/row-id.js';

/** A venue or organizer named by an event write (spec §11.3). */
export type LinkInput = { kind: 'id'; id: number } | { kind: 'inline'; data: Record<string, unknown> };

const EMPTY = (value: unknown) =>
  value === null || value === '' || value === 0 || value === '0' || (Array.isArray(value) && value.length === 0);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `{ "0": a, "1": b }` from form bodies is an array. */
function asArray(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value as unknown[];
  if (isPlainObject(value) && Object.keys(value).length > 0 && Object.keys(value).every((key) => /^\d+$/.test(key))) {
    return Object.keys(value)
      .sort((a, b) => Number(a) - Number(b))
      .map((key) => value[key]);
  }
  return null;
}

/** The link to the row a number or digits name; null when no row can have that id. */
function idLink(value: unknown): LinkInput | null {
  const id = rowIdOf(value);
  return id === null ? null : { kind: 'id', id };
}

function linkElement(value: unknown, nameField: string): LinkInput | null {
  if (typeof value === 'number' || typeof value === 'string') return idLink(value);
  if (isPlainObject(value)) {
    if (value.id !== undefined && value.id !== null && value.id !== '') return idLink(value.id);
    if (nameField in value) return { kind: 'inline', data: value };
  }
  return null;
}

/** `venue`: an id, `{id}`, an inline venue, or a one-element array of those; empty values unlink. */
export const venueInput: ParamParser<LinkInput | null> = (raw, param) => {
  if (EMPTY(raw)) return null;
  const list = asArray(raw);
  if (list && list.length > 1) return new Invalid({ key: 'unknown_venue' });
  const element = list ? list[0] : raw;
  if (EMPTY(element)) return null;
  return (
    linkElement(element, 'venue') ??
    (isPlainObject(element) || typeof element === 'string' ? new Invalid({ key: 'unknown_venue' }) : typeErrorFor('integer', param))
  );
};

/** `organizer`: ids (list, comma string), `{id}` objects and inline organizers, in order; empty values unlink all. */
export const organizerInput: ParamParser<LinkInput[]> = (raw) => {
  if (EMPTY(raw)) return [];
  let elements: unknown[];
  const list = asArray(raw);
  if (list) elements = list;
  else if (typeof raw === 'string')
    elements = raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  else elements = [raw];
  if (elements.length > MAX_LIST_ITEMS) return new Invalid({ key: 'too_many_items', args: { max: MAX_LIST_ITEMS } });
  const result: LinkInput[] = [];
  for (const element of elements) {
    const link = linkElement(element, 'organizer');
    if (!link) return new Invalid({ key: 'unknown_organizer' });
    result.push(link);
  }
  return result;
};

/** `categories`, `tags` on writes: ids and/or names; empty values remove all (spec §11.4). */
export const termInput: ParamParser<string[]> = (raw, param) => {
  if (raw === null || raw === '' || (Array.isArray(raw) && raw.length === 0)) return [];
  const list = asArray(raw);
  let items: unknown[];
  if (list) items = list;
  else if (typeof raw === 'string') items = raw.split(',');
  else if (typeof raw === 'number') items = [raw];
  else return typeErrorFor('string_list', param);
  if (items.some((item) => typeof item !== 'string' && typeof item !== 'number')) return typeErrorFor('string_list', param);
  const names = [...new Set(items.map((item) => String(item).trim()).filter((item) => item !== ''))];
  if (names.length > MAX_LIST_ITEMS) return new Invalid({ key: 'too_many_items', args: { max: MAX_LIST_ITEMS } });
  if (names.some((name) => [...name].length > 200)) return new Invalid({ key: 'too_long', args: { max: 200 } });
  return names;
};

/** `custom_fields`: an object of strings (spec §8.11); which keys exist is checked by the service. */
export const customFieldsInput: ParamParser<Record<string, string | null>> = (raw, param) => {
  if (!isPlainObject(raw)) return typeErrorFor('object', param);
  const result: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === null || value === '') result[key] = null;
    else if (typeof value === 'string' || typeof value === 'number') {
      const text = String(value).trim();
      if ([...text].length > 2000) return new Invalid({ key: 'too_long', args: { max: 2000 } });
      result[key] = text === '' ? null : text;
    } else return typeErrorFor('string', param);
  }
  return result;
};

/** `categories`, `tags` on writes: term IDs, slugs or names. */
export const TERM_LIST_SCHEMA: ApiPropertyOptions = { type: 'array', items: { oneOf: [{ type: 'integer' }, { type: 'string' }] } };

/** A new venue or organizer given inline: an object with at least its name field. */
const inlineItem = (nameField: string) => ({
  type: 'object' as const,
  properties: { [nameField]: { type: 'string' } },
  required: [nameField],
});

/** `venue` on writes: an ID, or a new venue. */
export const VENUE_SCHEMA: ApiPropertyOptions = { oneOf: [{ type: 'integer' }, inlineItem('venue')] };

/** `organizer` on writes: organizer IDs and new organizers. */
export const ORGANIZER_LIST_SCHEMA: ApiPropertyOptions = {
  type: 'array',
  items: { oneOf: [{ type: 'integer' }, inlineItem('organizer')] },
};
