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

export interface TranslationRow {
  kind: string;
  record_id: number | string;
  language: string;
  field: string;
  /** Null for languages outside the reader's chain (the row only says a translation exists). */
  value: string | null;
}

/** What one record of a batch answers: its translated fields' texts (null: none), and its language key. */
interface RecordAnswer {
  overrides: Record<string, string> | null;
  key: ContentLanguageKey;
  /** The last record {@link TranslatedTexts.textOf} copied, and its copy (a venue serves every event it holds). */
  copyOf?: object;
  copy?: object;
}

/** The rows of one record: per field, the text of the best language of the chain so far, and every language with a row. */
interface RecordRows {
  best: Map<string, { rank: number; language: string; value: string }>;
  languages: string[];
}

/**
 * The translations of a batch of records as one reader's chain answers them, read in one statement
 * (`ContentTranslationsService.read`): a record's text with each field taken from the first language
 * of the chain that has it (the original last), and its {@link ContentLanguageKey}. Each record's
 * answer is worked out once, when first asked for, and shared by every payload of the batch that
 * embeds the record.
 */
export class TranslatedTexts {
  private readonly rows = new Map<TranslatedKind, Map<number, RecordRows>>();
  private readonly answers = new Map<TranslatedKind, Map<number, RecordAnswer>>();
  /** The position of each language of the chain before the original: a lower one answers first. */
  private readonly rank = new Map<string, number>();

  constructor(
    readonly chain: readonly string[],
    readonly original: string,
    rows: TranslationRow[],
  ) {
    for (const language of chain) {
      if (language === original) break;
      this.rank.set(language, this.rank.size);
    }
    for (const row of rows) {
      const kind = row.kind as TranslatedKind;
      const id = Number(row.record_id);
      let ofKind = this.rows.get(kind);
      if (!ofKind) this.rows.set(kind, (ofKind = new Map<number, RecordRows>()));
      let entry = ofKind.get(id);
      if (!entry) ofKind.set(id, (entry = { best: new Map(), languages: [] }));
      if (!entry.languages.includes(row.language)) entry.languages.push(row.language);
      const rank = this.rank.get(row.language);
      if (row.value === null || rank === undefined) continue;
      const best = entry.best.get(row.field);
      if (!best || rank < best.rank) entry.best.set(row.field, { rank, language: row.language, value: row.value });
    }
  }

  private answerOf(kind: TranslatedKind, id: number): RecordAnswer {
    let ofKind = this.answers.get(kind);
    if (!ofKind) this.answers.set(kind, (ofKind = new Map<number, RecordAnswer>()));
    let answer = ofKind.get(id);
    if (answer) return answer;
    const entry = this.rows.get(kind)?.get(id);
    const names = TRANSLATED_FIELDS[kind];
    const fields: Record<string, string> = {};
    let overrides: Record<string, string> | null = null;
    for (const field of names) {
      const best = entry?.best.get(field);
      fields[field] = best ? best.language : this.original;
      if (best) (overrides ??= {})[field] = best.value;
    }
    const key = { original: this.original, answered: fields[names[0]], fields, translations: entry ? [...entry.languages].sort() : [] };
    answer = { overrides, key };
    ofKind.set(id, answer);
    return answer;
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
   * `payload`, an object of the caller's own holding the record's translated fields under their own
   * names (an embedded term), with those fields set to the reader's languages in place.
   */
  translateIn<P extends object>(kind: TranslatedKind, id: number, payload: P): P {
    const { overrides } = this.answerOf(kind, id);
    if (overrides !== null) Object.assign(payload, overrides);
    return payload;
  }

  /** The record's {@link ContentLanguageKey}: one object per record of the batch, not to be changed. */
  keyOf(kind: TranslatedKind, id: number): ContentLanguageKey {
    return this.answerOf(kind, id).key;
  }

  /** `payload` with the record's {@link ContentLanguageKey} added last, as `language`. */
  withKey<P extends object>(kind: TranslatedKind, id: number, payload: P): P & { language: ContentLanguageKey } {
    return Object.assign(payload, { language: this.keyOf(kind, id) });
  }
}
