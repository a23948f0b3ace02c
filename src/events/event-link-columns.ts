import type { KnownEventLinks } from './event-payloads.service.js';

/**
 * The columns of `events` that hold the event's links, kept by the database's triggers from the link
 * tables (migration `LinksInEventRow`): `<organizer id>:<position>` for each organizer, the ids of
 * the categories and of the tags, each list comma-separated in no given order, NULL when empty.
 */
export const LINK_COLUMNS = ['organizer_links', 'category_links', 'tag_links'] as const;

/** The numbers of a comma-separated list as the triggers write it (none for NULL or ''). */
function numbers(text: unknown): string[] {
  return typeof text === 'string' && text !== '' ? text.split(',') : [];
}

/**
 * The links of event `eventId` read from its row's {@link LINK_COLUMNS}, in the order the link
 * tables' statement gives them (`EventPayloadsService.linksQuery`): organizers by position (ties by
 * id), categories and tags by id.
 */
export function linksFromColumns(eventId: number, row: Record<string, unknown>): KnownEventLinks {
  const organizers = numbers(row.organizer_links).map((pair) => {
    const colon = pair.indexOf(':');
    return { eventId, organizerId: Number(pair.slice(0, colon)), position: Number(pair.slice(colon + 1)) };
  });
  organizers.sort((a, b) => a.position - b.position || a.organizerId - b.organizerId);
  const terms = (text: unknown) =>
    numbers(text)
      .map(Number)
      .sort((a, b) => a - b)
      .map((termId) => ({ eventId, termId, extra: 0 }));
  return { organizers, categories: terms(row.category_links), tags: terms(row.tag_links) };
}
