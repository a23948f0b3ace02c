import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next, { type i18n as I18nInstance } from 'i18next';

export type Catalogue = Record<string, Record<string, unknown>>;

/** The folder holding one sub-folder of JSON catalogues per language (copied to dist as assets). */
export const CATALOGUE_DIR = dirname(fileURLToPath(import.meta.url));

/** Reads `<dir>/<lang>/<namespace>.json` for one language; null when the language has no folder. */
export function readCatalogue(lang: string, dir = CATALOGUE_DIR): Catalogue | null {
  const folder = join(dir, lang);
  let files: string[];
  try {
    files = readdirSync(folder).filter((file) => file.endsWith('.json'));
  } catch {
    return null;
  }
  const catalogue: Catalogue = {};
  for (const file of files) {
    catalogue[file.slice(0, -'.json'.length)] = JSON.parse(readFileSync(join(folder, file), 'utf8')) as Catalogue[string];
  }
  return catalogue;
}

/** How many texts {@link Translator.t} remembers before it starts over. */
const REMEMBERED_TEXTS = 2000;
/** Texts whose arguments are longer (a long slug a client sent, say) are not remembered: the memory stays small. */
const REMEMBERED_KEY_LENGTH = 512;

/**
 * The key a text is remembered under: null when an argument is not a string, a number or a boolean,
 * or when the key is long (such a text is worked out every time).
 */
function textKey(lang: string, key: string, args: Record<string, unknown>): string | null {
  const parts: string[] = [lang, key];
  for (const [name, value] of Object.entries(args)) {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return null;
    parts.push(name, typeof value, String(value));
  }
  // JSON keeps the parts apart whatever they contain
  const memo = JSON.stringify(parts);
  return memo.length <= REMEMBERED_KEY_LENGTH ? memo : null;
}

/**
 * Text of every language edition. A key missing in an edition falls back to the default edition's
 * text and is reported through `onMissing`, so tests can fail on gaps.
 */
export class Translator {
  private readonly i18n: I18nInstance;
  /** Texts already worked out, by language, key and arguments. */
  private readonly texts = new Map<string, string>();

  private constructor(
    i18n: I18nInstance,
    readonly languages: readonly string[],
    private readonly catalogues: Record<string, Catalogue>,
    private readonly onMissing?: (lang: string, key: string) => void,
  ) {
    this.i18n = i18n;
  }

  static create(
    languages: readonly string[],
    catalogues: Record<string, Catalogue>,
    onMissing?: (lang: string, key: string) => void,
  ): Translator {
    const instance = i18next.createInstance();
    void instance.init({
      initAsync: false,
      resources: catalogues,
      lng: languages[0],
      fallbackLng: languages[0],
      supportedLngs: [...languages],
      lowerCaseLng: true,
      ns: Object.keys(catalogues[languages[0]] ?? {}),
      defaultNS: 'errors',
      interpolation: { escapeValue: false },
      returnNull: false,
      showSupportNotice: false,
    } as Parameters<I18nInstance['init']>[0]);
    return new Translator(instance, languages, catalogues, onMissing);
  }

  /**
   * `key` is `namespace:path`, e.g. `errors:rest_no_route`. The catalogues do not change once
   * loaded, so a text is worked out once per language, key and arguments and then remembered (a
   * bounded number of them: arguments may echo what a client sent).
   */
  t(lang: string, key: string, args: Record<string, unknown> = {}): string {
    if (this.onMissing && !this.has(lang, key)) this.onMissing(lang, key);
    const memo = textKey(lang, key, args);
    const known = memo === null ? undefined : this.texts.get(memo);
    if (known !== undefined) return known;
    const text = String(this.i18n.t(key, { ...args, lng: lang }));
    if (memo === null) return text;
    if (this.texts.size >= REMEMBERED_TEXTS) this.texts.clear();
    this.texts.set(memo, text);
    return text;
  }

  /**
   * Prose of the OpenAPI document and the namespace index: `openapi.json` maps the English text to
   * its translation. The default edition writes English; a gap falls back to English and is reported.
   */
  prose(lang: string, text: string): string {
    if (lang === this.languages[0] && lang === 'en') return text;
    const translated = (this.catalogues[lang]?.openapi as Record<string, unknown> | undefined)?.[text];
    if (typeof translated === 'string') return translated;
    this.onMissing?.(lang, `openapi:${text}`);
    return text;
  }

  has(lang: string, key: string): boolean {
    return this.i18n.exists(key, { lng: lang, fallbackLng: false } as never);
  }
}
