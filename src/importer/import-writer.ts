/** The import writer: one object per run, the entry point of every write of the importer. */
import type { ImportMappingEntity } from './import-mapping.entity.js';
import type { Outcome } from './import-outcome.js';
import { writeEvent } from './import-event-writes.js';
import { writeLinked } from './import-item-writes.js';
import { writeTerm } from './import-term-writes.js';
import { removeVanished } from './import-vanished-writes.js';
import { ImportWriteContext } from './import-write-context.js';
import type { EventRecord, LinkedRecord, TermRecord } from './source-records.js';

/**
 * Writes source records here, one transaction per record with its links, its change-log entries
 * and its term counts: ids and slugs kept when free, new ones (and a mapping) otherwise; updates by
 * the source's `modified` and a hash of the values; edits made here since the last import handled
 * by the conflict policy. A dry run decides the same way and writes nothing.
 */
export class ImportWriter extends ImportWriteContext {
  writeTerm(record: TermRecord): Promise<Outcome> {
    return writeTerm(this, record);
  }

  writeLinked(record: LinkedRecord, protectedAtSource: boolean, dependency = false): Promise<Outcome> {
    return writeLinked(this, record, protectedAtSource, dependency);
  }

  writeEvent(record: EventRecord, protectedAtSource: boolean): Promise<Outcome> {
    return writeEvent(this, record, protectedAtSource);
  }

  removeVanished(row: ImportMappingEntity, action: 'trashed' | 'deleted'): Promise<Outcome> {
    return removeVanished(this, row, action);
  }
}
