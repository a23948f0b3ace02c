import type { EventNoteEntity } from './event-note.entity.js';

/** What the API answers for one note. */
export function toEventNotePayload(note: EventNoteEntity): Record<string, unknown> {
  return {
    id: note.id,
    event_id: note.eventId,
    author: String(note.authorId),
    body: note.body,
    date_utc: note.createdUtc,
  };
}
