import type { Type } from '@nestjs/common';
import { ApiPropertyOptional, getSchemaPath, type ApiPropertyOptions } from '@nestjs/swagger';
import { ResponseSchema } from '../openapi/response-schema.js';

/** What every list answer carries after its records (spec §9.2, §9.3). */
export interface ListPageTail {
  rest_url: string;
  next_rest_url?: string;
  previous_rest_url?: string;
  total: number;
  total_pages: number;
}

export type ListPageLinks = Pick<ListPageTail, 'rest_url' | 'next_rest_url' | 'previous_rest_url'>;

/** A list answer: the records under the resource's key (`events`, `venues`, ...), then links and totals. */
export type ListPage<K extends string, T> = Record<K, T[]> & ListPageTail;

// The contract documents no key of a list page as required, though `rest_url` and the totals always come.
const TAIL_PROPERTIES = {
  rest_url: { type: 'string', format: 'uri', description: 'This page of the list.' },
  next_rest_url: { type: 'string', format: 'uri', description: 'The next page, when there is one.' },
  previous_rest_url: { type: 'string', format: 'uri', description: 'The previous page, when there is one.' },
  total: { type: 'integer', description: 'Number of matching records.' },
  total_pages: { type: 'integer', description: 'Number of pages.' },
} satisfies Record<keyof ListPageTail, ApiPropertyOptions>;

const pages = new Map<string, { item: Type; page: Type }>();

/**
 * The documented class of a list answer whose records are `item`s under `key` (one class per schema
 * name, `<Key>Page` unless `name` says otherwise: a second list of other records under the same key
 * needs a name of its own; the key comes first, as on the wire, so it is declared on a base class).
 */
export function listPageResponse<K extends string, T>(
  key: K,
  item: Type<T>,
  name = `${key.charAt(0).toUpperCase()}${key.slice(1)}Page`,
): Type<ListPage<K, T>> {
  const known = pages.get(name);
  if (known && known.item !== item) throw new Error(`The list schema ${name} is already documented with another record class`);
  if (known) return known.page as Type<ListPage<K, T>>;
  class Records {}
  ApiPropertyOptional({ type: 'array', items: { $ref: getSchemaPath(item) } })(Records.prototype, key);
  class Page extends Records {}
  for (const [name, options] of Object.entries(TAIL_PROPERTIES)) ApiPropertyOptional(options)(Page.prototype, name);
  ResponseSchema(name, item)(Page);
  pages.set(name, { item, page: Page });
  return Page as Type<ListPage<K, T>>;
}
