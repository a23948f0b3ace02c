/**
 * Arrays built by form and query-string parsing (a repeated key, or bracket notation) carry this
 * mark. A parameter that takes one value reads the last element of such an array (spec §7.2); an
 * array sent as JSON has no mark, so it is refused there as the wrong type (spec §7.3).
 */
const FORM_LIST = Symbol('form-list');

/** Marks every array inside a parsed form body or query string; returns the same value. */
export function markFormLists<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) Object.defineProperty(value, FORM_LIST, { value: true });
  for (const child of Object.values(value)) markFormLists(child, depth + 1);
  return value;
}

export function isFormList(value: unknown): value is unknown[] {
  return Array.isArray(value) && (value as unknown as Record<symbol, unknown>)[FORM_LIST] === true;
}
