import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { DataVersionService } from '../cache/data-version.service.js';
import type { ApiConfig } from '../config/app-config.js';
import type { RequestContext } from '../common/http/request-context.js';
import { idChunks } from '../common/sql/id-chunks.js';
import { noteTranslated } from '../changes/change-commits.js';
import type { ParamProblems } from '../common/errors/api-error.js';
import { sanitizeRichText, stripTags } from '../common/text/html.js';
import { ContentTranslationEntity } from './content-translation.entity.js';
import { TRANSLATED, TRANSLATED_FIELDS, TranslatedTexts, type TranslatedKind, type TranslatedRow } from './content-translations.js';

const LANGUAGE_CODE = /^[a-z]{2}(-[a-z]{2})?$/;
/** The kinds whose records every edition's reader meets on most pages, few enough to be read whole. */
const TERM_KINDS: ReadonlySet<TranslatedKind> = new Set<TranslatedKind>(['category', 'tag']);

/** Adds the rows of `ids` that `byId` holds to `rows`. */
function pick(byId: Map<number, TranslatedRow> | undefined, ids: number[], rows: TranslatedRow[]): void {
  if (!byId) return;
  for (const id of ids) {
    const row = byId.get(id);
    if (row) rows.push(row);
  }
}

/** Records of each kind an answer holds. */
export type TranslatedRecords = Partial<Record<TranslatedKind, Iterable<number>>>;

/** Per language, the fields a write sets (a string) or removes (null); null for the language removes all of them. */
export type TranslationChanges = Record<string, Record<string, string | null> | null>;

/**
 * Content in every edition (issue 48): reads of the translations of the records an answer holds
 * (one statement per answer, a thousand records of a kind at a time) and their writes.
 * The default path (no edition prefix) never reads them: its answers stay the v1 answers.
 */
@Injectable()
export class ContentTranslationsService {
  readonly contentLanguage: string;
  private readonly defaultEdition: string;
  private readonly chains: Record<string, string[]>;
  /** Per edition without a chain of its own, its chain (one array, whose layout `TranslatedTexts` keeps). */
  private readonly ownChains = new Map<string, readonly string[]>();
  readonly editions: readonly string[];
  /** Per edition, the terms' rows of the current data version ({@link termRows}). */
  private readonly termRowsOf = new Map<string, () => Promise<Map<string, Map<number, TranslatedRow>>>>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly version: DataVersionService,
    config: ConfigService,
  ) {
    const api = config.getOrThrow<ApiConfig>('api');
    this.contentLanguage = api.contentLanguage;
    this.defaultEdition = api.editions[0];
    this.chains = api.contentChains;
    this.editions = api.editions;
  }

  /** Whether answers to this request carry translations: only those through an edition's path. */
  applies(ctx: RequestContext): boolean {
    return ctx.edition !== this.defaultEdition && ctx.target !== null;
  }

  /**
   * Whether records may hold a translation into `language`: an edition served under its own path
   * (the default path answers the originals only) other than the content language.
   */
  translatable(language: string): boolean {
    return this.editions.includes(language) && language !== this.contentLanguage && language !== this.defaultEdition;
  }

  /** The edition's languages in the order they answer, the content language last. */
  chainOf(edition: string): readonly string[] {
    const configured = this.chains[edition];
    if (configured) return configured;
    let chain = this.ownChains.get(edition);
    if (!chain) this.ownChains.set(edition, (chain = [edition, this.contentLanguage]));
    return chain;
  }

  /**
   * What a write (already parsed) asks of the record's translations: through an edition's path
   * (whose language is not the content language), the text fields it names are that edition's
   * translation and leave the original alone; `translations` sets several (each language an edition
   * other than the content language, else a problem of `translations`). Returns the write without
   * the fields that went to a translation, and the changes, sanitised as the originals are.
   */
  split<T extends object>(
    kind: TranslatedKind,
    ctx: RequestContext,
    input: T,
    problems: ParamProblems,
    write: 'create' | 'update',
  ): { input: T; changes: TranslationChanges } {
    const fields = TRANSLATED[kind];
    const changes: TranslationChanges = {};
    let original = input;
    // a record is created with its original text, whatever the path
    if (write === 'update' && this.applies(ctx) && ctx.edition !== this.contentLanguage) {
      const own: Record<string, string | null> = {};
      original = Object.assign(Object.create(Object.getPrototypeOf(input) as object) as T, input);
      for (const { field, wire } of fields) {
        const value = (input as Record<string, unknown>)[wire];
        if (typeof value !== 'string') continue;
        own[field] = value;
        delete (original as Record<string, unknown>)[wire];
      }
      if (Object.keys(own).length > 0) changes[ctx.edition] = own;
    }
    const given = (input as { translations?: TranslationChanges }).translations;
    if (given !== undefined) {
      for (const [language, values] of Object.entries(given)) {
        if (!this.translatable(language)) {
          problems.add('translations', 'translations', { fields: fields.map(({ wire }) => wire).join(', ') });
          break;
        }
        changes[language] = values === null ? null : { ...changes[language], ...values };
      }
    }
    for (const values of Object.values(changes)) {
      if (values === null) continue;
      for (const { field, rich } of fields) {
        const value = values[field];
        if (typeof value === 'string') values[field] = rich ? sanitizeRichText(value) : stripTags(value);
      }
    }
    return { input: original, changes };
  }

  /**
   * SQL for the text a reader of `ctx` is answered in, of `alias.column` of a record of `kind`
   * (`field` translated): through an edition's path the first translation along the edition's chain,
   * else the column (a primary-key lookup per language). Edition codes and fields are checked words.
   */
  answeredText(ctx: RequestContext, kind: TranslatedKind, alias: string, field: string): string {
    const column = `${alias}.${field}`;
    if (!this.applies(ctx) || !TRANSLATED_FIELDS[kind].includes(field)) return column;
    const languages = this.chainOf(ctx.edition).filter((language) => language !== this.contentLanguage && LANGUAGE_CODE.test(language));
    if (languages.length === 0) return column;
    const lookups = languages.map(
      (language) =>
        `(SELECT ct.value FROM content_translations ct WHERE ct.kind = '${kind}' AND ct.record_id = ${alias}.id AND ct.language = '${language}' AND ct.field = '${field}')`,
    );
    return `COALESCE(${[...lookups, column].join(', ')})`;
  }

  /** Checks a list's `missing_translation`: an edition other than the content language, else a problem of `param`. */
  checkMissingLanguage(language: string | undefined, param: string, problems: ParamProblems): void {
    if (language === undefined || this.translatable(language)) return;
    problems.add(param, 'one_of', { values: this.editions.filter((code) => this.translatable(code)).join(', ') });
  }

  /** SQL: the record `alias` of `kind` has no translation of its title or name in `language` (a checked edition). */
  missingCondition(kind: TranslatedKind, alias: string, language: string): string {
    if (!LANGUAGE_CODE.test(language)) throw new Error(`not a language code: ${language}`);
    return `NOT EXISTS (SELECT 1 FROM content_translations ct WHERE ct.kind = '${kind}' AND ct.record_id = ${alias}.id AND ct.language = '${language}' AND ct.field = '${TRANSLATED_FIELDS[kind][0]}')`;
  }

  /** Ids of records of `kind` with a translation of their title or name in `language`. */
  async translatedIds(kind: TranslatedKind, language: string): Promise<Set<number>> {
    const rows = await this.dataSource.manager
      .createQueryBuilder(ContentTranslationEntity, 't')
      .select('t.record_id', 'record_id')
      .where('t.kind = :kind AND t.language = :language AND t.field = :field', { kind, language, field: TRANSLATED_FIELDS[kind][0] })
      .getRawMany<{ record_id: number | string }>();
    return new Set(rows.map((row) => Number(row.record_id)));
  }

  /**
   * The translations of `records` for `ctx`'s edition; null through the default path. One statement
   * while every kind holds at most a thousand records (a page of any list does), a row per record:
   * the languages it has a translation in, and the texts of the languages of the reader's chain.
   * Outside a transaction, the terms' rows come from {@link termRows} (no statement while the data
   * version stays, as the terms themselves), so a page of events asks for its events, venues and
   * organizers alone.
   */
  async read(ctx: RequestContext, records: TranslatedRecords, manager?: EntityManager): Promise<TranslatedTexts | null> {
    if (!this.applies(ctx)) return null;
    const chain = this.chainOf(ctx.edition);
    const runner = manager ?? this.dataSource.manager;
    const batches: Array<Array<readonly [TranslatedKind, number[]]>> = [];
    const rows: TranslatedRow[] = [];
    const kept: Array<Promise<void>> = [];
    for (const [kind, given] of Object.entries(records) as Array<[TranslatedKind, Iterable<number>]>) {
      const distinct = new Set<number>();
      for (const id of given) if (Number.isSafeInteger(id)) distinct.add(id);
      if (distinct.size === 0) continue;
      const ids = Array.from(distinct);
      if (!manager && TERM_KINDS.has(kind)) {
        kept.push(this.termRows(ctx.edition, chain).then((byKind) => pick(byKind.get(kind), ids, rows)));
        continue;
      }
      let index = 0;
      for (const chunk of idChunks(ids)) (batches[index++] ??= []).push([kind, chunk]);
    }
    for (const batch of batches) {
      const conditions = batch.map(([, ids]) => `(t.kind = ? AND t.record_id IN (${ids.join(', ')}))`).join(' OR ');
      rows.push(
        ...(await this.grouped(
          runner,
          chain,
          conditions,
          batch.map(([kind]) => kind),
        )),
      );
    }
    await Promise.all(kept);
    return new TranslatedTexts(chain, this.contentLanguage, rows);
  }

  /**
   * The rows of every category and tag with a translation, for an edition, by kind and id: read
   * once per data version (as the terms are), and again after a failure.
   */
  private termRows(edition: string, chain: readonly string[]): Promise<Map<string, Map<number, TranslatedRow>>> {
    let memo = this.termRowsOf.get(edition);
    if (!memo) {
      memo = this.version.memo(async () => {
        const found = await this.grouped(this.dataSource.manager, chain, 't.kind IN (?, ?)', [...TERM_KINDS]);
        const byKind = new Map<string, Map<number, TranslatedRow>>();
        for (const row of found) {
          let own = byKind.get(row.kind);
          if (!own) byKind.set(row.kind, (own = new Map<number, TranslatedRow>()));
          own.set(Number(row.record_id), row);
        }
        return byKind;
      });
      this.termRowsOf.set(edition, memo);
    }
    return memo();
  }

  /** The statement of {@link read}: a row per record matching `conditions` (SQL over `t`, with `parameters`). */
  private grouped(runner: EntityManager, chain: readonly string[], conditions: string, parameters: unknown[]): Promise<TranslatedRow[]> {
    const { select, parameters: texts } = TranslatedTexts.layoutOf(chain, this.contentLanguage);
    // Each id is a range of the primary key; MariaDB would estimate each by two index dives (below
    // 200 ranges), which cost more than the lookups themselves: statistics serve this statement.
    const settings = runner.connection.options.type === 'mariadb' ? 'SET STATEMENT eq_range_index_dive_limit = 1 FOR ' : '';
    return runner.query(
      `${settings}SELECT t.kind AS kind, t.record_id AS record_id, GROUP_CONCAT(DISTINCT t.language) AS languages${select} ` +
        `FROM content_translations t WHERE ${conditions} GROUP BY t.kind, t.record_id`,
      [...texts, ...parameters],
    );
  }

  /**
   * Applies `changes` to a record's translations inside the caller's transaction: a field set to a
   * non-empty text is stored, one set to null or `''` removed, a language set to null removed whole.
   * Returns whether anything was asked of the table.
   */
  async write(manager: EntityManager, kind: TranslatedKind, recordId: number, changes: TranslationChanges): Promise<boolean> {
    let wrote = false;
    // the record's change row names the editions (change feed, webhooks)
    noteTranslated(manager, kind, recordId, Object.keys(changes));
    for (const [language, fields] of Object.entries(changes)) {
      if (fields === null) {
        await manager.delete(ContentTranslationEntity, { kind, recordId, language });
        wrote = true;
        continue;
      }
      for (const [field, value] of Object.entries(fields)) {
        if (!TRANSLATED_FIELDS[kind].includes(field)) continue;
        await manager.delete(ContentTranslationEntity, { kind, recordId, language, field });
        if (value !== null && value !== '') await manager.insert(ContentTranslationEntity, { kind, recordId, language, field, value });
        wrote = true;
      }
    }
    return wrote;
  }

  /** Removes every translation of records removed for good. */
  async removeAll(manager: EntityManager, kind: TranslatedKind, recordIds: number[]): Promise<void> {
    for (const chunk of idChunks(recordIds)) {
      await manager
        .createQueryBuilder()
        .delete()
        .from(ContentTranslationEntity)
        .where(`kind = :kind AND record_id IN (${chunk.map(Number).join(', ')})`, { kind })
        .execute();
    }
  }
}
