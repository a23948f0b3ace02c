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

/**
 * The translations of a batch of records as one reader's chain answers them, read in one statement
 * (`ContentTranslationsService.read`): a record's text with each field taken from the first language
 * of the chain that has it (the original last), and its {@link ContentLanguageKey}.
 */
export class TranslatedTexts {
  private readonly byRecord = new Map<string, { values: Map<string, string>; languages: Set<string> }>();

  constructor(
    readonly chain: readonly string[],
    readonly original: string,
    rows: TranslationRow[],
  ) {
    for (const row of rows) {
      const key = `${row.kind}:${Number(row.record_id)}`;
      let entry = this.byRecord.get(key);
      if (!entry) this.byRecord.set(key, (entry = { values: new Map(), languages: new Set() }));
      entry.languages.add(row.language);
      if (row.value !== null) entry.values.set(`${row.language}:${row.field}`, row.value);
    }
  }

  /** The language that answers `field` of the record, and its text there (undefined: the original). */
  private answer(kind: TranslatedKind, id: number, field: string): { language: string; value?: string } {
    const entry = this.byRecord.get(`${kind}:${id}`);
    for (const language of this.chain) {
      if (language === this.original) break;
      const value = entry?.values.get(`${language}:${field}`);
      if (value !== undefined) return { language, value };
    }
    return { language: this.original };
  }

  /** A copy of `record` (same prototype) with its translated fields in the reader's languages. */
  textOf<T extends object>(kind: TranslatedKind, id: number, record: T): T {
    const overrides: Record<string, string> = {};
    for (const field of TRANSLATED_FIELDS[kind]) {
      const { value } = this.answer(kind, id, field);
      if (value !== undefined) overrides[field] = value;
    }
    if (Object.keys(overrides).length === 0) return record;
    return Object.assign(Object.create(Object.getPrototypeOf(record) as object) as T, record, overrides);
  }

  keyOf(kind: TranslatedKind, id: number): ContentLanguageKey {
    const fields: Record<string, string> = {};
    for (const field of TRANSLATED_FIELDS[kind]) fields[field] = this.answer(kind, id, field).language;
    const languages = this.byRecord.get(`${kind}:${id}`)?.languages ?? new Set<string>();
    return {
      original: this.original,
      answered: fields[TRANSLATED_FIELDS[kind][0]],
      fields,
      translations: [...languages].sort(),
    };
  }

  /** `payload` with the record's {@link ContentLanguageKey} added last, as `language`. */
  withKey<P extends object>(kind: TranslatedKind, id: number, payload: P): P & { language: ContentLanguageKey } {
    return Object.assign(payload, { language: this.keyOf(kind, id) });
  }
}
