/**
 * Whether `id` is one a row can have: a positive whole number the database and JavaScript agree on.
 * Anything else (0, a negative, a fraction, a path of hundreds of digits read as `Infinity`) is no
 * row's id, and is answered without a statement.
 */
export function isRowId(id: number): boolean {
  return Number.isSafeInteger(id) && id > 0;
}
