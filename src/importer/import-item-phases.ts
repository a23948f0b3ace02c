/** The phases of venues, organizers and events: their lists page by page, each record with the records it links to. */
import type { ImportKind } from './import-mapping.entity.js';
import { RESOURCE_OF_KIND, skip, warn } from './import-report.js';
import {
  announceWrites,
  count,
  isProtected,
  KIND_OF,
  RESOURCE_OF,
  seenSet,
  visibleStatuses,
  writeFailure,
  type RunState,
} from './import-run-state.js';
import { writeTermSafely } from './import-term-phases.js';
import type { Outcome } from './import-outcome.js';
import { CREDENTIAL_STATUSES, ListRefused, PER_PAGE, readList, readSingle } from './source-reader.js';
import { convertEvent } from './source-event-records.js';
import { convertOrganizer, convertVenue } from './source-linked-records.js';
import { convertTerm, type EventRecord, type LinkRef } from './source-records.js';
import type { Resource } from './source-site.js';
import { sourcePassword } from './source-survey.js';
import { isRowId } from '../common/sql/row-id.js';

/** Venues, organizers or events, page by page; the run row remembers the last page written. */
export async function itemsPhase(state: RunState, resource: Resource, fromPage: number, trash: boolean): Promise<boolean> {
  const kind = KIND_OF[resource];
  const authenticated = state.client.authenticated;
  const status = trash ? 'trash' : authenticated && state.site.listArgs[resource].has('status') ? CREDENTIAL_STATUSES.join(',') : undefined;
  const visible = visibleStatuses(state, resource);
  const key = trash ? `${resource} (trash)` : resource;
  try {
    for await (const page of readList(state.client, state.site, resource, { status, fromPage })) {
      const total = page.total;
      const done = (page.page - 1) * PER_PAGE;
      for (const raw of page.records) await importRaw(state, resource, raw as Record<string, unknown>);
      const progress = { done: Math.min(total ?? Infinity, done + page.records.length), total };
      state.tally.progress[key] = progress;
      state.observer.progress?.(key, progress.done, progress.total);
      await state.writer.markSeen(kind, page.records.map((raw) => Number((raw as { id?: unknown }).id)).filter(Number.isSafeInteger));
      await announceWrites(state);
      await state.save({ pagesDone: page.page });
      if (state.stop() && page.page < page.totalPages) return false;
    }
  } catch (error) {
    if (!(error instanceof ListRefused)) throw error;
    // credentials that may not use this status filter: what they could read is all there is
    if (trash) {
      warn(state.tally, `${resource} in the trash are not listed for these credentials (${error.answer.status}): none were imported`);
      return true;
    }
    if (status !== undefined && [400, 401, 403].includes(error.answer.status)) {
      warn(state.tally, `these credentials may not list unpublished ${resource} (${error.answer.status}): published ones only`);
      visible.clear();
      visible.add('publish');
      for await (const page of readList(state.client, state.site, resource, { fromPage })) {
        for (const raw of page.records) await importRaw(state, resource, raw as Record<string, unknown>);
        state.observer.progress?.(resource, Math.min(page.total ?? Infinity, page.page * PER_PAGE), page.total);
        await state.save({ pagesDone: page.page });
      }
      return true;
    }
    throw error;
  }
  if (trash) visible.add('trash');
  return true;
}

/** Whether the source shows a record redacted: `null` flags (events, venues), or the reference's empty list for an organizer's name. */
function isRedacted(kind: ImportKind, raw: Record<string, unknown>): boolean {
  return kind === 'organizer' ? Array.isArray(raw.organizer) : raw.all_day === null || raw.show_map === null;
}

/** One record of a list (or read alone): converted, its links imported first, written. */
export async function importRaw(state: RunState, resource: Resource, raw: Record<string, unknown>): Promise<void> {
  const kind = KIND_OF[resource];
  const id = Number(raw.id);
  if (Number.isSafeInteger(id)) {
    seenSet(state, kind).add(id);
    if (kind !== 'category' && kind !== 'tag') {
      state.knownItemIds.add(id);
      state.writer.floors.item = Math.max(state.writer.floors.item, id);
    }
  }
  let body = raw;
  // a record shown redacted to the credentials (the reference redacts protected events in lists even for
  // editors) is read alone, where the reference shows it in full to editors
  const redacted = isRedacted(kind, raw);
  if (redacted && state.client.authenticated && Number.isSafeInteger(id)) {
    const single = await readSingle(state.client, state.site, resource, id);
    if (single.kind === 'found' && !isRedacted(kind, single.body)) body = single.body;
  }
  const imageId = Number((body.image as { id?: unknown } | undefined)?.id);
  if (isRowId(imageId)) state.knownItemIds.add(imageId);
  try {
    const redactedBody = isRedacted(kind, body);
    const protectedAtSource = isProtected(state, kind, body) || redactedBody;
    let outcome: Outcome | undefined;
    if (kind === 'event') {
      const event = convertEvent(body, state.convert);
      await importLinks(state, event);
      outcome = await state.writer.writeEvent(event, protectedAtSource);
    } else if (kind === 'venue' || kind === 'organizer') {
      const linked = kind === 'venue' ? convertVenue(body, state.convert) : convertOrganizer(body, state.convert);
      outcome = await state.writer.writeLinked(linked, protectedAtSource);
    } else {
      await writeTermSafely(state, convertTerm(body, kind as 'category' | 'tag', state.convert));
    }
    if (outcome) {
      count(state, outcome);
      if (protectedAtSource && (outcome.action === 'created' || outcome.action === 'updated')) {
        if (redactedBody && outcome.action === 'updated') {
          warn(
            state.tally,
            `${kind} ${id} is password-protected at the source and these credentials do not unlock it: only what they show was updated, its content and links here were kept`,
          );
        } else if (redactedBody) {
          warn(
            state.tally,
            `${kind} ${id} is password-protected at the source and these credentials do not unlock it: imported as a visitor sees it (content blank), protected here with a random password`,
          );
        } else if (!(await hasSourcePassword(state, kind, id))) {
          warn(
            state.tally,
            `${kind} ${id} is password-protected at the source, which does not tell the password: it is protected here with a random one (set post_password to change it)`,
          );
        }
      }
    }
  } catch (error) {
    skip(state.tally, RESOURCE_OF[kind as 'event'], {
      kind,
      sourceId: Number.isSafeInteger(id) ? id : null,
      reason: writeFailure(error),
    });
  }
}

async function hasSourcePassword(state: RunState, kind: ImportKind, id: number): Promise<boolean> {
  if (kind !== 'event' && kind !== 'venue' && kind !== 'organizer') return true;
  return (await sourcePassword(state.client, state.site, kind, id)) !== null;
}

/** Venues, organizers and terms an event links to that are not imported yet: from the event's own embedded copy. */
async function importLinks(state: RunState, event: EventRecord): Promise<void> {
  const missing = (kind: ImportKind, ref: LinkRef) =>
    !state.writer.mapping(kind, ref.sourceId) && !state.writer.failed.has(`${kind}:${ref.sourceId}`);
  for (const [kind, refs] of [
    ['category', event.categories],
    ['tag', event.tags],
  ] as const) {
    for (const ref of refs) {
      if (!missing(kind, ref) || !ref.embedded) continue;
      try {
        count(state, await state.writer.writeTerm(convertTerm(ref.embedded, kind, state.convert)));
      } catch (error) {
        state.writer.failed.add(`${kind}:${ref.sourceId}`);
        skip(state.tally, kind === 'category' ? 'categories' : 'tags', { kind, sourceId: ref.sourceId, reason: writeFailure(error) });
      }
    }
  }
  for (const [kind, refs] of [
    ['venue', event.venue ? [event.venue] : []],
    ['organizer', event.organizers],
  ] as const) {
    for (const ref of refs) {
      state.knownItemIds.add(ref.sourceId);
      if (!missing(kind, ref)) continue;
      let body = ref.embedded;
      if (!body || isRedacted(kind, body)) {
        const single = await readSingle(state.client, state.site, RESOURCE_OF[kind], ref.sourceId);
        if (single.kind === 'found') body = single.body;
      }
      if (!body) continue;
      try {
        const linked = kind === 'venue' ? convertVenue(body, state.convert) : convertOrganizer(body, state.convert);
        count(state, await state.writer.writeLinked(linked, isProtected(state, kind, body), true));
      } catch (error) {
        state.writer.failed.add(`${kind}:${ref.sourceId}`);
        skip(state.tally, RESOURCE_OF_KIND[kind], { kind, sourceId: ref.sourceId, reason: writeFailure(error) });
      }
    }
  }
}
