import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

/** scrypt parameters (N=2^15, r=8, p=1: about 32 MiB and tens of milliseconds per hash). */
const PARAMS = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Salted slow hash, stored as `scrypt$N$r$p$salt$hash` (base64). */
export async function hashPassword(plain: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(plain, salt, KEY_LENGTH, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyPassword(plain: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, hashText] = stored.split('$');
  if (scheme !== 'scrypt' || !saltText || !hashText) return false;
  const expected = Buffer.from(hashText, 'base64');
  const actual = await scryptAsync(plain, Buffer.from(saltText, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** 24 characters from [A-Za-z0-9] (spec §4.2). */
export function generatePassword(length = 24): string {
  let result = '';
  for (let i = 0; i < length; i++) result += ALPHABET[randomInt(ALPHABET.length)];
  return result;
}

/** User-chosen passwords: 8-128 characters, no whitespace or control characters. */
export function isAcceptablePassword(plain: string): boolean {
  return /^[^\s\p{Cc}]{8,128}$/u.test(plain);
}

export function fingerprint(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}
