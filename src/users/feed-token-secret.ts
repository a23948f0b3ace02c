import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Every feed token starts with this, so a leaked one is easy to recognise (and to search logs for). */
export const FEED_TOKEN_PREFIX = 'calfeed_';
const SECRET_BYTES = 32;
/** The prefix and 32 random bytes in base64url (43 characters), nothing else. */
const FEED_TOKEN_FORMAT = /^calfeed_[A-Za-z0-9_-]{43}$/;

/** A new secret: the prefix and 32 random bytes, base64url. Shown once; only its hash is stored. */
export function generateFeedToken(): string {
  return `${FEED_TOKEN_PREFIX}${randomBytes(SECRET_BYTES).toString('base64url')}`;
}

/** Whether a value has the shape of a feed token (cheap check before any database work). */
export function looksLikeFeedToken(value: string): boolean {
  return FEED_TOKEN_FORMAT.test(value);
}

/** SHA-256 of the whole token, lower-case hex: what the table keeps. */
export function hashFeedToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex hashes of the same length. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A request target with the value of every `token` parameter replaced, for the request log. */
export function redactFeedTokens(url: string): string {
  return url.replace(/([?&]token(?:\[\w*\]|%5B\w*%5D)?=)[^&#]*/gi, '$1[REDACTED]');
}
