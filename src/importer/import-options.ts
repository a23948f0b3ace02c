/** What a run of the importer is given and what it tells while it works: options, observer, the refusal of a run, an opened run. */
import type { ImportRunEntity } from './import-run.entity.js';
import type { ConflictPolicy } from './import-outcome.js';
import type { SourceClient, SourceClientOptions } from './source-client.js';
import type { SourceSite } from './source-site.js';

export interface ImportOptions {
  from: string;
  user?: string;
  password?: string;
  dryRun?: boolean;
  /** Any date form of contract §6.2, read in the site zone. */
  since?: string;
  /** Login of the local user that imported records belong to (default: the first administrator). */
  author?: string;
  onConflict?: ConflictPolicy;
  /** Start over instead of resuming an interrupted run of the same source. */
  restart?: boolean;
  client?: Partial<SourceClientOptions>;
}

/** What a run tells whoever started it while it works. */
export interface ImportObserver {
  /** `id`: the run's row in `import_runs`; a dry run has one too (`dry_run` = true), but is no run of the source. */
  started?(run: { id: number; source: string; resumed: boolean; phase: string; dryRun?: boolean }): void;
  /** A resource's list is being read: `total` records (null when the source does not say), `done` so far. */
  progress?(resource: string, done: number, total: number | null): void;
  note?(line: string): void;
}

/** An error that ends the run before it starts: an option (`param` names it) or a run of the same source already going. */
export class ImportRefused extends Error {
  constructor(
    message: string,
    readonly param: 'on_conflict' | 'user' | 'password' | 'since' | 'author' | null = null,
    /** The run already going, when that is the reason. */
    readonly runningRun: number | null = null,
  ) {
    super(message);
  }
}

/** A run opened by {@link TecImporter.open}, ready to {@link TecImporter.execute}. */
export interface OpenedRun {
  options: ImportOptions;
  prepared: { since: string | null; authorId: number; policy: ConflictPolicy };
  client: SourceClient;
  site: SourceSite;
  run: ImportRunEntity;
  resumed: boolean;
  started: number;
}
