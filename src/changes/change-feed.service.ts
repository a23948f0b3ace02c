import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { canReadItem, canWriteItem } from '../common/auth/permissions.js';
import type { ItemStatus } from '../common/auth/item-status.js';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import type { AuthUser, RequestContext } from '../common/http/request-context.js';
import { dateToWall } from '../common/sql/columns.js';
import { ChangeSequencer } from './change-sequencer.js';
import type { ChangeKind } from './change-recording.js';
import type { ChangeFeedEntry, ChangesResponse } from './changes.response.js';
import { CHANGES_PER_PAGE, type ChangesQueryDto } from './changes.query.js';
import { encodeCursor } from './sync-cursor.js';
import { ChangeRetention } from './change-retention.js';
import { onPrimary } from '../common/sql/read-routing.js';

/** Log rows looked at for one answer at most: a reader who may see few of them gets a short page and `has_more`. */
const SCAN_LIMIT = 5000;
const SCAN_BATCH = 500;

const COLLECTION: Record<ChangeKind, string> = {
  event: 'events',
  venue: 'venues',
  organizer: 'organizers',
  category: 'categories',
  tag: 'tags',
};

interface LogRow {
  seq: string | number;
  kind: ChangeKind;
  record_id: number | string;
  author_id: number | string | null;
  status_before: string | null;
  status_after: string | null;
  protected_before: number | boolean | string;
  protected_after: number | boolean | string;
  modified_utc: Date | string;
  languages: string | null;
}

const truthy = (value: number | boolean | string) => value === true || value === 1 || value === '1';

/**
 * Whether `user` may read a record in this state through the API: terms always; events, venues
 * and organizers as single reads decide (spec §5.4), except that the trash counts as gone and a
 * password-protected record as unreadable to those who cannot edit it.
 */
export function visibleTo(
  user: AuthUser | null,
  kind: ChangeKind,
  status: string | null,
  authorId: number | null,
  protectedRecord: boolean,
): boolean {
  if (status === null) return false;
  if (kind === 'category' || kind === 'tag') return true;
  if (status === 'trash') return false;
  const item = { authorId: authorId ?? 0, status: status as ItemStatus, preTrashStatus: null };
  if (!canReadItem(user, item)) return false;
  return !protectedRecord || canWriteItem(user, item);
}

/**
 * `GET /changes`: the log of committed changes as one reader may see it. A change that makes a
 * record readable for the reader is `created`, one that keeps it readable `updated`, one that makes
 * it unreadable `deleted`; changes to records the reader could not read before nor after are left out.
 */
@Injectable()
export class ChangeFeedService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sequencer: ChangeSequencer,
    @Inject(ChangeRetention) private readonly retention: ChangeRetention,
  ) {}

  /**
   * One page of the feed, read on the primary even when replicas answer other reads: cursors are
   * positions in the primary's numbering, which a lagging replica may not have reached yet.
   */
  page(query: ChangesQueryDto, ctx: RequestContext): Promise<ChangesResponse> {
    return onPrimary(() => this.readPage(query, ctx));
  }

  private async readPage(query: ChangesQueryDto, ctx: RequestContext): Promise<ChangesResponse> {
    const perPage = Math.min(query.per_page ?? CHANGES_PER_PAGE.default, CHANGES_PER_PAGE.max);
    await this.retention.pruneWhenDue();
    await this.sequencer.sequence();
    const state = await this.sequencer.state();
    if (query.since?.now) return { changes: [], next_cursor: encodeCursor(state.lastSeq), has_more: false };
    const start = query.since ? query.since.seq : state.prunedThrough;
    if (start > state.lastSeq) throw ApiError.invalidParam('since', 'sync_cursor');
    if (start < state.prunedThrough) throw new ApiError(410, ErrorCode.SyncCursorExpired);

    const changes: ChangeFeedEntry[] = [];
    let position = start;
    let scanned = 0;
    let more = false;
    scan: while (scanned < SCAN_LIMIT) {
      const rows: LogRow[] = await this.dataSource.query(
        'SELECT seq, kind, record_id, author_id, status_before, status_after, protected_before, protected_after, modified_utc, languages FROM changes WHERE seq > ? ORDER BY seq LIMIT ?',
        [position.toString(), SCAN_BATCH],
      );
      for (const row of rows) {
        if (changes.length === perPage || scanned === SCAN_LIMIT) {
          more = true;
          break scan;
        }
        scanned += 1;
        position = BigInt(row.seq);
        const entry = this.entryFor(row, ctx);
        if (entry) changes.push(entry);
      }
      if (rows.length < SCAN_BATCH) break;
    }
    if (!more && scanned === SCAN_LIMIT) more = await this.hasAfter(position);
    // retention may have removed rows while this page was read: then the page could have holes
    if (start < (await this.sequencer.state()).prunedThrough) throw new ApiError(410, ErrorCode.SyncCursorExpired);
    return { changes, next_cursor: encodeCursor(position), has_more: more };
  }

  private async hasAfter(position: bigint): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('SELECT seq FROM changes WHERE seq > ? LIMIT 1', [position.toString()]);
    return rows.length > 0;
  }

  private entryFor(row: LogRow, ctx: RequestContext): ChangeFeedEntry | null {
    const authorId = row.author_id === null ? null : Number(row.author_id);
    const before = visibleTo(ctx.user, row.kind, row.status_before, authorId, truthy(row.protected_before));
    const after = visibleTo(ctx.user, row.kind, row.status_after, authorId, truthy(row.protected_after));
    if (!before && !after) return null;
    const id = Number(row.record_id);
    return {
      cursor: encodeCursor(BigInt(row.seq)),
      type: row.kind,
      id,
      action: before && after ? 'updated' : after ? 'created' : 'deleted',
      modified_utc: row.modified_utc instanceof Date ? dateToWall(row.modified_utc) : String(row.modified_utc).slice(0, 19),
      rest_url: `${ctx.api}/${COLLECTION[row.kind]}/${id}`,
      ...(row.languages ? { languages: row.languages.split(',') } : {}),
    };
  }
}
