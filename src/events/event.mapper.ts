import type { CostConfig, CustomFieldDefinition } from '../config/app-config.js';
import { dateDetails, utcToWall } from '../common/dates/wall-time.js';
import { timezoneAbbr } from '../common/dates/zones.js';
import { renderRichText } from '../common/text/html.js';
import { esc, jsonLdText, type JsonLd } from '../common/text/json-ld.js';
import type { ImageResponse } from '../images/image.response.js';
import { globalId, itemDates, itemUrl, type ItemKindShape, type SiteLinks } from '../items/item.mapper.js';
import type { OrganizerResponse } from '../organizers/organizer.response.js';
import type { EventTermResponse } from '../terms/term.response.js';
import type { VenueResponse } from '../venues/venue.response.js';
import { costDetails, costDisplay, lowestCostValue } from './event-cost.js';
import type { EventEntity } from './event.entity.js';
import { plainFieldRedactions, plainFieldsOf } from './event-fields.js';
import type { CustomFieldValue, EventResponse } from './event.response.js';
import { wallToDate } from '../common/sql/columns.js';

export const EVENT_SHAPE: ItemKindShape = { pagePath: 'event', postType: 'tribe_events' };

/** Everything around an event that its payload embeds, loaded in batches by the service. */
export interface EventRelations {
  image: ImageResponse | undefined;
  /** The venue object (already redacted or not), or null. */
  venue: VenueResponse | null;
  /** JSON-LD of the venue when it is shown unredacted. */
  venueJsonLd: JsonLd | null;
  organizers: OrganizerResponse[];
  /** JSON-LD of the first organizer when it is shown unredacted. */
  firstOrganizerJsonLd: JsonLd | null;
  categories: EventTermResponse[];
  tags: EventTermResponse[];
  /** Rules of the event's series, when it is an occurrence of one. */
  seriesRules: string[] | null;
}

export interface EventMapperSettings {
  site: SiteLinks;
  api: string;
  cost: CostConfig;
  customFields: CustomFieldDefinition[];
}

/** Custom field values (spec §8.11): defined keys with a value, in definition order; `[]` when none. */
export function customFieldsPayload(
  values: Record<string, string> | null,
  definitions: CustomFieldDefinition[],
): Record<string, CustomFieldValue> | [] {
  const result: Record<string, CustomFieldValue> = {};
  for (const { key, label } of definitions) {
    const value = values?.[key];
    if (value) result[key] = { label, value };
  }
  return Object.keys(result).length > 0 ? result : [];
}

/** The text of an event that has translations (issue 48), as a reader is answered it. */
export type EventText = Pick<EventEntity, 'title' | 'description' | 'excerpt'>;

/**
 * The event object of spec §8.2, keys in contract order; `json_ld` only for single reads. `text`:
 * the event's title, description and excerpt in the reader's languages (the event's own unless given).
 */
export function toEventPayload(
  event: EventEntity,
  relations: EventRelations,
  settings: EventMapperSettings,
  withJsonLd: boolean,
  text: EventText = event,
): EventResponse {
  const { site, cost } = settings;
  const url = itemUrl(EVENT_SHAPE, event, site);
  const costs = event.cost ?? [];
  const stored = { symbol: event.costSymbol, position: event.costPosition };
  const id = globalId(event.id, site);
  // `as`: the plain fields come from the entity's declarations; a unit test holds the keys to the response class
  const payload = {
    id: event.id,
    global_id: id,
    global_id_lineage: [id],
    author: String(event.authorId),
    status: event.status,
    ...itemDates(event, site),
    url,
    rest_url: `${settings.api}/events/${event.id}`,
    title: text.title,
    description: renderRichText(text.description),
    excerpt: renderRichText(text.excerpt),
    slug: event.slug,
    image: relations.image ?? false,
    all_day: event.allDay,
    start_date: event.startLocal,
    start_date_details: dateDetails(event.startLocal),
    end_date: event.endLocal,
    end_date_details: dateDetails(event.endLocal),
    utc_start_date: event.startUtc,
    utc_start_date_details: dateDetails(event.startUtc),
    utc_end_date: event.endUtc,
    utc_end_date_details: dateDetails(event.endUtc),
    timezone: event.timezone,
    timezone_abbr: timezoneAbbr(event.timezone, event.startUtc),
    cost: costDisplay(costs, stored, { symbol: cost.currencySymbol, position: cost.currencyPosition }, cost.decimalSeparator),
    cost_details: costDetails(costs, stored, cost.decimalSeparator),
    website: event.website || url,
    // show_map, show_map_link, hide_from_listings, sticky, featured and any field declared with @EventField
    ...plainFieldsOf(event),
    categories: relations.categories,
    tags: relations.tags,
    venue: relations.venue ?? [],
    organizer: relations.organizers,
    custom_fields: customFieldsPayload(event.customFields, settings.customFields),
    recurrence:
      event.seriesId !== null && relations.seriesRules !== null
        ? {
            series_id: event.seriesId,
            rules: relations.seriesRules,
            is_main: event.seriesId === event.id,
            original_start: event.seriesOriginalStart ?? event.startLocal,
          }
        : null,
  } as EventResponse;
  if (withJsonLd) payload.json_ld = eventJsonLd(event, text, relations, settings, url);
  return payload;
}

/** schema.org Event (spec §8.10). */
function eventJsonLd(event: EventEntity, text: EventText, relations: EventRelations, settings: EventMapperSettings, url: string): JsonLd {
  const jsonLd: JsonLd = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: esc(text.title),
    description: jsonLdText(renderRichText(text.excerpt), renderRichText(text.description)),
  };
  if (relations.image) jsonLd.image = relations.image.url;
  jsonLd.url = url;
  jsonLd.eventAttendanceMode = 'https://schema.org/OfflineEventAttendanceMode';
  jsonLd.eventStatus = 'https://schema.org/EventScheduled';
  jsonLd.startDate = isoFromWallAndUtc(event.startLocal, event.startUtc);
  jsonLd.endDate = isoFromWallAndUtc(event.endLocal, event.endUtc);
  if (relations.venueJsonLd) jsonLd.location = relations.venueJsonLd;
  if (relations.firstOrganizerJsonLd) jsonLd.organizer = relations.firstOrganizerJsonLd;
  const price = lowestCostValue(event.cost ?? [], settings.cost.decimalSeparator);
  if (price !== null) {
    const publicationDay = utcToWall(event.dateUtc, settings.site.siteTimezone).slice(0, 10);
    jsonLd.offers = {
      '@type': 'Offer',
      price,
      priceCurrency: settings.cost.currencyCode,
      url,
      category: 'primary',
      availability: 'inStock',
      validFrom: `${publicationDay}T00:00:00+00:00`,
    };
  }
  jsonLd.performer = 'Organization';
  return jsonLd;
}

/**
 * ISO 8601 local time with its offset, taken from the stored pair of wall time and UTC instant, so a
 * time in a repeated hour keeps the offset of the occurrence that was stored.
 */
export function isoFromWallAndUtc(wall: string, utc: string): string {
  const minutes = Math.round((wallToDate(wall).getTime() - wallToDate(utc).getTime()) / 60000);
  const sign = minutes < 0 ? '-' : '+';
  const absolute = Math.abs(minutes);
  const offset = `${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}:${String(absolute % 60).padStart(2, '0')}`;
  return `${wall.replace(' ', 'T')}${offset}`;
}

/** Replacement of an event's relation and plain fields when it is shown redacted (spec §5.6, §8.12). */
export function eventRedactions(): Partial<EventResponse> {
  return {
    ...plainFieldRedactions(),
    venue: [],
    organizer: [],
    cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
  };
}
