/**
 * Whether `id` is one a row can have: a positive whole number the database and JavaScript agree on.
 * Anything else (0, a negative, a fraction, a path of hundreds of digits read as `Infinity`) is no
 * row's id, and is answered without a statement.
 */
export function isRowId(id: number): boolean {
  return Number.isSafeInteger(id) && id > 0;
}

/** The row id a value names (a number, or digits as text, that {@link isRowId} takes); null for anything else. */
export function rowIdOf(value: unknown): number | null {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  return isRowId(id) ? id : null;
}

/**
 * An id as written into a statement's text: a safe whole number, never text. Anything else is a
 * programming error (ids reach statements checked), so it throws instead of writing it out.
 */
export function checkedId(id: number): string {
  const value = Number(id);
  if (!Number.isSafeInteger(value)) throw new TypeError(`not an id: ${String(id)}`);
  return String(value);
}
