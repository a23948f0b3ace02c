/** What the import writer is told (settings, conflict policy, password lookup) and what it answers for each record (the outcome). */
import type { ImportKind } from './import-mapping.entity.js';

export type ConflictPolicy = 'overwrite' | 'keep-local' | 'skip';
export const CONFLICT_POLICIES: readonly ConflictPolicy[] = ['overwrite', 'keep-local', 'skip'];

/**
 * What happened to one source record. `trashed`: trashed at the source (or gone from what the run
 * could see), so in the trash here; `deleted`: deleted for good at the source (an item is kept in
 * the trash here, a term is deleted as its route deletes it).
 */
export type Action = 'created' | 'updated' | 'unchanged' | 'kept' | 'skipped' | 'trashed' | 'deleted' | 'older';

export interface Outcome {
  action: Action;
  kind: ImportKind;
  sourceId: number;
  localId: number | null;
  /** The source id was taken here: the record got `localId` instead (or was merged into an existing term). */
  renumbered?: boolean;
  merged?: boolean;
  /** The source slug was taken here: the record got `slug` instead. */
  slugChanged?: { from: string; to: string };
  reason?: string;
  /** Title or name of the record, for the list of changes of a dry run. */
  name?: string;
}

export interface WriterSettings {
  sourceId: number;
  runId: number;
  dryRun: boolean;
  policy: ConflictPolicy;
  defaultAuthorId: number;
  /** Source author id → local user id, where the same login exists here. */
  authors: Map<number, number>;
  /** Keys of `EVENT_CUSTOM_FIELDS` here. */
  customFieldKeys: Set<string>;
  /** Only records the source modified at or after this UTC wall time are written (`--since`). */
  since: string | null;
  /** Whether the run reads with credentials (a visitor's view hides what protected records hold). */
  authenticated: boolean;
}

/** Passwords of protected source records: the real one when the source told it, else null (a random one is set). */
export type PasswordLookup = (kind: 'event' | 'venue' | 'organizer', sourceId: number) => Promise<string | null>;
