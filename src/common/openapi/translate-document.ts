/** Keys whose string values are prose; everything else (names, enums, defaults, examples, refs) stays. */
const PROSE_KEYS = new Set(['title', 'summary', 'description']);
/** Subtrees that hold data, not prose, even under a prose-looking key. */
const DATA_KEYS = new Set(['example', 'examples', 'default', 'enum', '$ref', 'properties', 'required']);

/**
 * A deep copy of an OpenAPI document (or namespace index) with every prose string passed through
 * `translate`. Property names are never prose: under `properties` the walk descends into the
 * property schemas but never treats the names themselves as text.
 */
export function translateDocument<T>(value: T, translate: (text: string) => string): T {
  return walk(value, translate) as T;
}

function walk(value: unknown, translate: (text: string) => string, parentKey?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => walk(item, translate, parentKey));
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (
      parentKey === 'properties' ||
      parentKey === 'args' ||
      parentKey === 'schemas' ||
      parentKey === 'paths' ||
      parentKey === 'routes' ||
      parentKey === 'responses'
    ) {
      result[key] = walk(child, translate);
    } else if (PROSE_KEYS.has(key) && typeof child === 'string') {
      result[key] = translate(child);
    } else if (DATA_KEYS.has(key) && key !== 'properties') {
      result[key] = structuredClone(child);
    } else {
      result[key] = walk(child, translate, key);
    }
  }
  return result;
}

/** Every prose string of a document, for catalogue checks. */
export function proseStrings(value: unknown): string[] {
  const found = new Set<string>();
  translateDocument(value, (text) => {
    found.add(text);
    return text;
  });
  return [...found];
}
