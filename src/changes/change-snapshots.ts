import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser, RequestContext } from '../common/http/request-context.js';
import { idChunks } from '../common/sql/id-chunks.js';
import { Editions } from '../editions/editions.js';
import { ChangeCommits, type ChangeHooks, notedSnapshotsWanted } from './change-commits.js';
import type { ChangeKind } from './change-recording.js';

/**
 * Renders one record as `GET` by id answers an administrator, reading through `manager` (inside the
 * transaction that changed it); null when the record does not exist. Resources register one per kind.
 */
export type ChangeRenderer = (manager: EntityManager, id: number, ctx: RequestContext) => Promise<object | null>;

/**
 * A stored snapshot: the record's JSON and the API base its URLs were written with; `editions`: the
 * record as other editions' paths answer it (their text, their URLs), for the editions asked for.
 */
interface StoredSnapshot {
  api: string;
  data: unknown;
  editions?: Record<string, unknown>;
}

/** Whether snapshots are wanted now: an SQL condition, asked inside the committing transaction. */
export type SnapshotProbe = string;

/** Whom the snapshots are rendered for: an administrator sees every field of every record. */
const RENDERING_USER: AuthUser = { id: 0, login: '', role: 'administrator' };

/**
 * The record of a change as it was when the change committed, kept in the change row (`snapshot`)
 * for the webhooks. Taken in the change's own transaction, just before it commits (so the snapshot
 * shows exactly that write, whatever later writes do); for a permanent deletion, just before the
 * record goes. Taken only while someone wants it (a probe registered by the webhooks: an active
 * subscription exists), so writes without listeners pay one small query before their commit.
 *
 * Platform code cannot know the resources: each resource registers its {@link ChangeRenderer}.
 * Snapshots are written in the default edition, and in the other editions a module asks for
 * ({@link ChangeSnapshots.alsoInEditionsOf}: the webhooks' subscriptions); {@link ChangeSnapshots.read}
 * gives an edition its own rendering, else rebases the default one's URLs onto its API.
 */
@Injectable()
export class ChangeSnapshots implements ChangeHooks, OnModuleInit {
  private readonly renderers = new Map<string, ChangeRenderer>();
  /** Each answers true while snapshots are wanted. */
  private readonly probes: SnapshotProbe[] = [];
  /** Queries whose rows (`edition`) name the other editions snapshots are also rendered in. */
  private readonly editionQueries: string[] = [];

  constructor(
    private readonly commits: ChangeCommits,
    private readonly editions: Editions,
  ) {}

  onModuleInit(): void {
    this.commits.provideHooks(this);
    this.commits.onBeforeCommit((manager, ids) => this.capture(manager, ids));
  }

  register(kind: ChangeKind, renderer: ChangeRenderer): void {
    this.renderers.set(kind, renderer);
  }

  /**
   * Snapshots are also rendered in the editions a query's rows name (`edition` column; the default
   * edition needs none): the webhooks' subscriptions of other editions get their text (content in
   * every edition) without a read after the commit.
   */
  alsoInEditionsOf(query: string): void {
    this.editionQueries.push(query);
  }

  /** Snapshots are taken while any probe holds (asked once per committing transaction). */
  wantedWhen(probe: SnapshotProbe): void {
    this.probes.push(probe);
  }

  /**
   * The condition under which snapshots are wanted, as an SQL expression (`0` when none can be):
   * a writer that reads something in its transaction anyway may ask it in the same statement and
   * note the answer ({@link noteSnapshotsWanted}), which saves the commit its own query.
   */
  wantedCondition(): string {
    if (this.renderers.size === 0 || this.probes.length === 0) return '0';
    return this.probes.map((probe) => `(${probe})`).join(' OR ');
  }

  private async wanted(manager: EntityManager): Promise<boolean> {
    const noted = notedSnapshotsWanted(manager);
    if (noted !== undefined) return noted;
    const condition = this.wantedCondition();
    if (condition === '0') return false;
    const [row]: Array<{ wanted: number | string | boolean }> = await manager.query(
      `SELECT CASE WHEN ${condition} THEN 1 ELSE 0 END AS wanted`,
    );
    return Number(row?.wanted) === 1;
  }

  /**
   * The record now, as a snapshot (JSON), or null when it does not exist or no renderer knows its kind.
   * `others`: the editions it is also rendered in (default: those {@link alsoInEditionsOf} names now).
   */
  async render(manager: EntityManager, kind: string, id: number, others?: readonly string[]): Promise<string | null> {
    const renderer = this.renderers.get(kind);
    if (!renderer) return null;
    const defaultEdition = this.editions.defaultEdition;
    const api = this.editions.api(defaultEdition);
    const data = await renderer(manager, id, this.renderingContext(defaultEdition));
    if (data === null) return null;
    const stored: StoredSnapshot = { api, data };
    for (const edition of others ?? (await this.otherEditions(manager))) {
      stored.editions ??= {};
      stored.editions[edition] = await renderer(manager, id, this.renderingContext(edition));
    }
    return JSON.stringify(stored);
  }

  async lastStates(manager: EntityManager, kind: string, ids: readonly number[]): Promise<Map<number, string>> {
    const states = new Map<number, string>();
    const others = await this.otherEditions(manager);
    for (const id of ids) {
      const snapshot = await this.render(manager, kind, id, others);
      if (snapshot !== null) states.set(id, snapshot);
    }
    return states;
  }

  /** The data of a snapshot as `edition`'s path answers it: rendered in it, else its URLs moved into its API. */
  read(snapshot: string, edition: string): unknown {
    const stored = JSON.parse(snapshot) as StoredSnapshot;
    if (stored.editions?.[edition] !== undefined) return stored.editions[edition];
    const target = this.editions.api(this.editions.codes.includes(edition) ? edition : this.editions.defaultEdition);
    return stored.api === target ? stored.data : rebase(stored.data, stored.api, target);
  }

  /** A request of an administrator through `edition`'s path (the default path for the default edition). */
  private renderingContext(edition: string): RequestContext {
    const defaultPath = edition === this.editions.defaultEdition;
    return {
      edition,
      base: this.editions.base(edition),
      api: this.editions.api(edition),
      target: defaultPath ? null : { path: '', search: '' },
      user: RENDERING_USER,
      route: null,
      ifMatch: null,
      routeParams: {},
      subject: null,
    };
  }

  /** The editions other than the default one that snapshots are rendered in now. */
  private async otherEditions(manager: EntityManager): Promise<string[]> {
    const found = new Set<string>();
    for (const query of this.editionQueries) {
      const rows: Array<{ edition: string }> = await manager.query(query);
      for (const { edition } of rows) {
        if (edition !== this.editions.defaultEdition && this.editions.codes.includes(edition)) found.add(edition);
      }
    }
    return [...found].sort();
  }

  private async capture(manager: EntityManager, changeIds: readonly string[]): Promise<void> {
    if (!(await this.wanted(manager))) return;
    const ids = [...new Set(changeIds.map(Number))];
    const rendered = new Map<string, string | null>();
    const others = await this.otherEditions(manager);
    for (const chunk of idChunks(ids)) {
      const rows: Array<{ id: number | string; kind: string; record_id: number | string }> = await manager.query(
        `SELECT id, kind, record_id FROM changes WHERE id IN (${chunk.join(', ')}) AND snapshot IS NULL AND seq IS NULL`,
      );
      for (const row of rows) {
        const key = `${row.kind}:${row.record_id}`;
        if (!rendered.has(key)) rendered.set(key, await this.render(manager, row.kind, Number(row.record_id), others));
        const snapshot = rendered.get(key);
        if (snapshot) await manager.query('UPDATE changes SET snapshot = ? WHERE id = ?', [snapshot, String(row.id)]);
      }
    }
  }
}

/** Every URL of the record that starts with the API base `from` moved onto `to`; other values as they are. */
function rebase(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') {
    return value === from || value.startsWith(`${from}/`) || value.startsWith(`${from}?`) ? to + value.slice(from.length) : value;
  }
  if (Array.isArray(value)) return value.map((item) => rebase(item, from, to));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rebase(item, from, to)]));
  }
  return value;
}
