import { Brackets, type SelectQueryBuilder } from 'typeorm';
import type { AuthUser } from '../common/http/request-context.js';
import { containsPattern, LIKE_ESCAPE } from '../common/sql/like.js';
import { eventSearchTerms } from '../common/text/search-terms.js';
import { mayWriteCondition } from '../items/visibility.js';
import type { EventEntity } from './event.entity.js';

const EARTH_RADIUS_KM = 6371;

/**
 * `search`: every included term in the title, description or excerpt, no excluded one; protected events only for their writers.
 * `columns`: the SQL of those texts (through an edition's path, the text the edition answers).
 */
export function whereSearch(
  builder: SelectQueryBuilder<EventEntity>,
  search: string,
  user: AuthUser | null,
  columns: readonly string[] = ['e.title', 'e.description', 'e.excerpt'],
): void {
  const { include, exclude } = eventSearchTerms(search);
  if (include.length === 0 && exclude.length === 0) return;
  const contains = (name: string) => `(${columns.map((column) => `LOWER(${column}) LIKE :${name} ${LIKE_ESCAPE}`).join(' OR ')})`;
  const pattern = containsPattern;
  include.forEach((term, index) => builder.andWhere(contains(`inc${index}`), { [`inc${index}`]: pattern(term) }));
  exclude.forEach((term, index) => builder.andWhere(`NOT ${contains(`exc${index}`)}`, { [`exc${index}`]: pattern(term) }));
  builder.andWhere(`(e.password IS NULL OR e.password = '' OR ${mayWriteCondition('e', user).sql})`);
}

/** Events linked to one of the terms through the link table (none: no event). */
export function whereTerms(builder: SelectQueryBuilder<EventEntity>, table: string, column: string, ids: number[], name: string): void {
  builder.andWhere(
    new Brackets((inner) => {
      inner.where(
        ids.length > 0
          ? `EXISTS (SELECT 1 FROM ${table} ${name} WHERE ${name}.event_id = e.id AND ${name}.${column} IN (:...${name}Ids))`
          : '1 = 0',
        {
          [`${name}Ids`]: ids,
        },
      );
    }),
  );
}

/** `geoloc`: events at a venue with coordinates, or (false) the others. */
export function whereLocated(builder: SelectQueryBuilder<EventEntity>, located: boolean): void {
  const condition =
    'EXISTS (SELECT 1 FROM venues gv WHERE gv.id = e.venue_id AND gv.geo_lat IS NOT NULL AND gv.geo_lng IS NOT NULL AND NOT (gv.geo_lat = 0 AND gv.geo_lng = 0))';
  builder.andWhere(located ? condition : `NOT ${condition}`);
}

/** Whether a point is within `radiusKm` of another (great-circle distance). */
export function isWithinRadius(from: { lat: number; lng: number }, to: { lat: number; lng: number }, radiusKm: number): boolean {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(to.lat - from.lat);
  const dLng = radians(to.lng - from.lng);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(radians(from.lat)) * Math.cos(radians(to.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a))) <= radiusKm;
}
