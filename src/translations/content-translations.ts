/** The kinds of record whose text has translations, as the change log names them. */
export type TranslatedKind = 'event' | 'venue' | 'organizer' | 'category' | 'tag';

/**
 * A translated text field: the record's property (stored as `field`), its name in write bodies,
 * and the rules of the original field (length, and HTML kept sanitised or stripped).
 */
export interface TranslatedField {
  field: string;
  wire: string;
  max: number;
  rich: boolean;
}

const NAME = 1000;
const LONG = 65535;
const described = (name: string, nameMax: number, richDescription: boolean): TranslatedField[] => [
  { field: 'name', wire: name, max: nameMax, rich: false },
  { field: 'description', wire: 'description', max: LONG, rich: richDescription },
];

/** The translated fields of each kind, the first the record's title or name. */
export const TRANSLATED: Record<TranslatedKind, readonly TranslatedField[]> = {
  event: [
    { field: 'title', wire: 'title', max: NAME, rich: false },
    { field: 'description', wire: 'description', max: LONG, rich: true },
    { field: 'excerpt', wire: 'excerpt', max: LONG, rich: true },
  ],
  venue: described('venue', NAME, true),
  organizer: described('organizer', NAME, true),
  category: described('name', 200, false),
  tag: described('name', 200, false),
};

/** The translated properties of each kind (the record's own property names, stored as `field`). */
export const TRANSLATED_FIELDS: Record<TranslatedKind, readonly string[]> = Object.fromEntries(
  Object.entries(TRANSLATED).map(([kind, fields]) => [kind, fields.map(({ field }) => field)]),
) as unknown as Record<TranslatedKind, readonly string[]>;

/**
 * The additive key of a record answered through an edition's path: the language of the record's
 * own text, the language each translated field is answered in, and the languages holding a
 * translation of at least one field.
 */
export interface ContentLanguageKey {
  original: string;
  /** The language of the record's first field (title or name). */
  answered: string;
  fields: Record<string, string>;
  translations: string[];
}

/** Every translated field of any kind, each a column of {@link TranslatedRow} per language of a chain. */
const ALL_FIELDS = [...new Set(Object.values(TRANSLATED_FIELDS).flat())];

/**
 * One record's translations as `ContentTranslationsService.read` selects them, grouped by record:
 * `languages`, every language holding a translation of at least one field (comma-separated), and
 * for each language of the reader's chain before the original and each field, its text (or null)
 * in the column {@link TranslatedTexts.columnsOf} names.
 */
export interface TranslatedRow {
  kind: string;
  record_id: number | string;
  languages: string | null;
  [column: string]: unknown;
}

/** A chain's columns of a {@link TranslatedRow}, worked out once per chain ({@link TranslatedTexts.layoutOf}). */
export interface ChainLayout {
  /** The languages of the chain that answer before the original's text. */
  languages: readonly string[];
  /** Each language answering before the original, with each field: its column. */
  columns: ReadonlyArray<{ column: string; language: string; field: string }>;
  /** Per field, its columns in the order of `languages`. */
  byField: ReadonlyMap<string, readonly string[]>;
  /** The statement's text columns (`, MAX(CASE …) AS column` for each column), and their parameters. */
  select: string;
  parameters: readonly string[];
}

/** Per chain (and original), its layout. */
const layouts = new WeakMap<readonly string[], Map<string, ChainLayout>>();

/** What one record of a batch answers: its translated fields' texts (null: none), and its language key. */
interface RecordAnswer {
  overrides: Record<string, string> | null;
  key: ContentLanguageKey;
  /** The last record {@link TranslatedTexts.textOf} copied, and its copy. */
  copyOf: object | undefined;
  copy: object | undefined;
  /** The same for {@link TranslatedTexts.fieldsOf}: the record, and its translated fields (a venue serves every event it holds). */
  fieldsOf: object | undefined;
  fields: object | undefined;
}

/**
 * The translations of a batch of records as one reader's chain answers them, read in one statement
 * (`ContentTranslationsService.read`), a row per record: a record's text with each field taken from
 * the first language of the chain that has it (the original last), and its {@link ContentLanguageKey}.
 * Each record's answer is worked out once, from its row, and shared by every payload of the batch
 * that embeds the record.
 */
export class TranslatedTexts {
  /** Per kind, the answers of its records holding a translation (the others: {@link untranslated}). */
  private readonly answers = new Map<TranslatedKind, Map<number, RecordAnswer>>();
  /** The languages of the chain before the original, the first answering first. */
  private readonly languages: readonly string[];
  /** Per field, its columns of a row in the order of {@link languages}. */
  private readonly columns: ReadonlyMap<string, readonly string[]>;
  /** Per `languages` value of a row, its languages sorted: one array shared by the records holding the same ones. */
  private readonly translationLists = new Map<string, string[]>();
  /** Per kind, the answer of its records without any translation (every field in the original): one object, not to be changed. */
  private readonly untranslatedAnswers = new Map<TranslatedKind, RecordAnswer>();

  constructor(
    readonly chain: readonly string[],
    readonly original: string,
    rows: TranslatedRow[],
  ) {
    const layout = TranslatedTexts.layoutOf(chain, original);
    this.languages = layout.languages;
    this.columns = layout.byField;
    for (const row of rows) {
      const kind = row.kind as TranslatedKind;
      let ofKind = this.answers.get(kind);
      if (!ofKind) this.answers.set(kind, (ofKind = new Map<number, RecordAnswer>()));
      ofKind.set(Number(row.record_id), this.answerOfRow(kind, row));
    }
  }

  /** The languages of `chain` that answer before the original's text. */
  static answering(chain: readonly string[], original: string): string[] {
    const index = chain.indexOf(original);
    return index < 0 ? [...chain] : chain.slice(0, index);
  }

  /** The columns of a {@link TranslatedRow} for a chain: each language answering before the original, with each field. */
  static columnsOf(chain: readonly string[], original: string): ReadonlyArray<{ column: string; language: string; field: string }> {
    return TranslatedTexts.layoutOf(chain, original).columns;
  }

  /** The chain's {@link ChainLayout}: worked out once for each chain (the same array) and original. */
  static layoutOf(chain: readonly string[], original: string): ChainLayout {
    let ofChain = layouts.get(chain);
    if (!ofChain) layouts.set(chain, (ofChain = new Map<string, ChainLayout>()));
    let layout = ofChain.get(original);
    if (!layout) {
      const languages = TranslatedTexts.answering(chain, original);
      const columns = languages.flatMap((language, index) =>
        ALL_FIELDS.map((field) => ({ column: `t${index}_${field}`, language, field })),
      );
      const byField = new Map<string, string[]>();
      for (const { column, field } of columns) {
        const own = byField.get(field);
        if (own) own.push(column);
        else byField.set(field, [column]);
      }
      layout = {
        languages,
        columns,
        byField,
        select: columns.map(({ column }) => `, MAX(CASE WHEN t.language = ? AND t.field = ? THEN t.value END) AS ${column}`).join(''),
        parameters: columns.flatMap(({ language, field }) => [language, field]),
      };
      ofChain.set(original, layout);
    }
    return layout;
  }

  private answerOf(kind: TranslatedKind, id: number): RecordAnswer {
    return this.answers.get(kind)?.get(id) ?? this.untranslated(kind);
  }

  /** The answer of a record holding a translation, from its row. */
  private answerOfRow(kind: TranslatedKind, row: TranslatedRow): RecordAnswer {
    const names = TRANSLATED_FIELDS[kind];
    const fields: Record<string, string> = {};
    let overrides: Record<string, string> | null = null;
    for (const field of names) {
      fields[field] = this.original;
      const columns = this.columns.get(field);
      if (!columns) continue;
      for (let index = 0; index < columns.length; index++) {
        const value = row[columns[index]];
        if (typeof value !== 'string') continue;
        fields[field] = this.languages[index];
        (overrides ??= {})[field] = value;
        break;
      }
    }
    const key = { original: this.original, answered: fields[names[0]], fields, translations: this.translationsOf(row.languages) };
    return { overrides, key, copyOf: undefined, copy: undefined, fieldsOf: undefined, fields: undefined };
  }

  /** The answer of a record of `kind` without translations, shared by every such record of the batch. */
  private untranslated(kind: TranslatedKind): RecordAnswer {
    let answer = this.untranslatedAnswers.get(kind);
    if (!answer) {
      const fields: Record<string, string> = {};
      for (const field of TRANSLATED_FIELDS[kind]) fields[field] = this.original;
      const key = { original: this.original, answered: this.original, fields, translations: [] };
      answer = { overrides: null, key, copyOf: undefined, copy: undefined, fieldsOf: undefined, fields: undefined };
      this.untranslatedAnswers.set(kind, answer);
    }
    return answer;
  }

  /** The sorted languages of a row's `languages` (comma-separated), one array per distinct value. */
  private translationsOf(languages: string | null): string[] {
    const given = languages ?? '';
    let sorted = this.translationLists.get(given);
    if (!sorted) {
      sorted = given === '' ? [] : given.split(',').sort();
      this.translationLists.set(given, sorted);
    }
    return sorted;
  }

  /** A copy of `record` (same prototype) with its translated fields in the reader's languages; the record itself when none is. */
  textOf<T extends object>(kind: TranslatedKind, id: number, record: T): T {
    const answer = this.answerOf(kind, id);
    if (answer.overrides === null) return record;
    if (answer.copyOf !== record) {
      answer.copyOf = record;
      answer.copy = Object.assign(Object.create(Object.getPrototypeOf(record) as object) as T, record, answer.overrides);
    }
    return answer.copy as T;
  }

  /**
   * The record's translated fields as the reader is answered them, for a mapper that reads them
   * apart from the record: `record` itself when none is translated, else an object holding those
   * fields alone (no copy of the whole record). `P`: the record's translated fields.
   */
  fieldsOf<P extends object>(kind: TranslatedKind, id: number, record: P): P {
    const answer = this.answerOf(kind, id);
    if (answer.overrides === null) return record;
    if (answer.fieldsOf !== record) {
      const fields: Record<string, unknown> = {};
      for (const field of TRANSLATED_FIELDS[kind]) fields[field] = answer.overrides[field] ?? (record as Record<string, unknown>)[field];
      answer.fieldsOf = record;
      answer.fields = fields;
    }
    return answer.fields as P;
  }

  /**
   * `payload`, an object of the caller's own holding the record's translated fields under their own
   * names (an embedded term), with those fields set to the reader's languages in place.
   */
  translateIn<P extends object>(kind: TranslatedKind, id: number, payload: P): P {
    const { overrides } = this.answerOf(kind, id);
    if (overrides !== null) Object.assign(payload, overrides);
    return payload;
  }

  /**
   * The record's {@link ContentLanguageKey}, not to be changed: one object per record of the batch,
   * shared by the records of a kind without translations; records holding the same languages share
   * the `translations` array.
   */
  keyOf(kind: TranslatedKind, id: number): ContentLanguageKey {
    return this.answerOf(kind, id).key;
  }

  /** `payload` with the record's {@link ContentLanguageKey} added last, as `language`. */
  withKey<P extends object>(kind: TranslatedKind, id: number, payload: P): P & { language: ContentLanguageKey } {
    const keyed = payload as P & { language: ContentLanguageKey };
    keyed.language = this.keyOf(kind, id);
    return keyed;
  }
}
