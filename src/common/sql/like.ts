/**
 * LIKE patterns that match text literally. `!` is the escape character: a backslash would be read
 * as a string escape by MySQL/MariaDB (unless NO_BACKSLASH_ESCAPES) but not by SQLite.
 */
export const LIKE_ESCAPE = "ESCAPE '!'";

export function escapeLike(text: string): string {
  return text.replace(/[!%_]/g, '!$&');
}

/** `%text%`, lower-cased, for `LOWER(column) LIKE :pattern ESCAPE '!'`. */
export function containsPattern(text: string): string {
  return `%${escapeLike(text.toLowerCase())}%`;
}
