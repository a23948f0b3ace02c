import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { DataVersionService } from '../cache/data-version.service.js';
import { CHANGE_KINDS as LIST_KINDS, type ChangeKind as ListKind, type ListLastChange } from '../common/http/list-last-change.js';
import { wallToDate } from '../common/sql/columns.js';
import type { ChangeKind } from './change-recording.js';

const KIND_OF_LIST: Record<ListKind, ChangeKind> = {
  events: 'event',
  venues: 'venue',
  organizers: 'organizer',
  categories: 'category',
  tags: 'tag',
};

/**
 * Dates lists by the change log: the last change of a kind (removals and records leaving a list
 * included) is when the newest log entry of that kind was written. Read once per data version, one
 * indexed query per kind.
 */
@Injectable()
export class ChangeLogLastChange implements ListLastChange {
  private readonly latest: () => Promise<Map<ListKind, Date>>;

  constructor(@InjectDataSource() dataSource: DataSource, version: DataVersionService) {
    this.latest = version.memo(async () => {
      const dates = new Map<ListKind, Date>();
      for (const list of LIST_KINDS) {
        const rows: Array<{ recorded_utc: Date | string }> = await dataSource.query(
          'SELECT recorded_utc FROM changes WHERE kind = ? ORDER BY id DESC LIMIT 1',
          [KIND_OF_LIST[list]],
        );
        const value = rows[0]?.recorded_utc;
        if (value !== undefined) dates.set(list, value instanceof Date ? value : wallToDate(String(value).slice(0, 19)));
      }
      return dates;
    });
  }

  async lastChange(kind: ListKind): Promise<Date | null> {
    return (await this.latest()).get(kind) ?? null;
  }
}
