import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { mergeMap, type Observable } from 'rxjs';
import { CHANGE_KINDS, type ChangeKind, LIST_LAST_CHANGE, type ListLastChange } from './list-last-change.js';

const TERM_KINDS = new Set<ChangeKind>(['categories', 'tags']);
const READ_ROUTE = /^(\w+)(\/:id|\/by-slug\/:slug)?$/;

/**
 * `Last-Modified` (RFC 9110 §8.8.2) on reads of events, venues, organizers and terms: a single item
 * → its `modified_utc`; a list → the newest `modified_utc` of its page combined (max) with
 * {@link ListLastChange}; terms, which carry no modification time → {@link ListLastChange} alone.
 * Applied to a resource controller with `@UseInterceptors`, so it sees the handler's object before
 * any global interceptor serializes it.
 */
@Injectable()
export class LastModifiedInterceptor implements NestInterceptor {
  constructor(@Inject(LIST_LAST_CHANGE) private readonly changes: ListLastChange) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const route = req.ctx?.route;
    // the list and the single reads of a kind; other routes (an extension's `events/:id/notes`) answer other things
    const [, kind, single] = (route && READ_ROUTE.exec(route.path)) ?? [];
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !route || !CHANGE_KINDS.includes(kind as ChangeKind)) return next.handle();
    const res = http.getResponse<Response>();
    return next.handle().pipe(
      mergeMap(async (body: unknown) => {
        const modified = await this.lastModified(kind as ChangeKind, single === undefined, body);
        if (modified !== null) res.setHeader('Last-Modified', modified.toUTCString());
        return body;
      }),
    );
  }

  private async lastModified(kind: ChangeKind, isList: boolean, body: unknown): Promise<Date | null> {
    if (TERM_KINDS.has(kind)) return this.changes.lastChange(kind);
    if (!isList) return utcWall((body as { modified_utc?: unknown } | null)?.modified_utc);
    const items = ((body as Record<string, unknown> | null)?.[kind] ?? []) as Array<{ modified_utc?: unknown }>;
    const dates = [...items.map((item) => utcWall(item?.modified_utc)), await this.changes.lastChange(kind)];
    return dates.reduce<Date | null>((newest, date) => (date !== null && (newest === null || date > newest) ? date : newest), null);
  }
}

/** `Last-Modified` of a single item's answer (its `modified_utc`), as the interceptor sets it; undefined without one. */
export function singleItemLastModified(body: unknown): string | undefined {
  return utcWall((body as { modified_utc?: unknown } | null)?.modified_utc)?.toUTCString();
}

/** A `YYYY-MM-DD HH:MM:SS` UTC wall time (spec §6.7) as a date; null for anything else (a redacted item). */
function utcWall(value: unknown): Date | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value)) return null;
  const date = new Date(`${value.replace(' ', 'T')}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}
