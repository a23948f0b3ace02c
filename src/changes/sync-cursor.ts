/**
 * Cursors of the change feed: opaque to clients, a sequence number underneath. The prefix lets a
 * later format live beside this one.
 */
const PREFIX = 'c1.';

export function encodeCursor(seq: bigint): string {
  return Buffer.from(`${PREFIX}${seq}`).toString('base64url');
}

/** The sequence number of a cursor, or null when the text is not one. */
export function decodeCursor(cursor: string): bigint | null {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith(PREFIX)) return null;
  const digits = text.slice(PREFIX.length);
  if (!/^(0|[1-9]\d{0,18})$/.test(digits)) return null;
  // the cursor must be written exactly as this module writes it
  return encodeCursor(BigInt(digits)) === cursor ? BigInt(digits) : null;
}
