import { generateFeedToken, hashFeedToken, looksLikeFeedToken, redactFeedTokens, sameHash } from './feed-token-secret.js';

describe('feed token secrets', () => {
  it('generates the prefix and 32 random bytes in base64url, never twice the same', () => {
    const tokens = Array.from({ length: 50 }, () => generateFeedToken());
    for (const token of tokens) {
      expect(token).toMatch(/^calfeed_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token.slice('calfeed_'.length), 'base64url')).toHaveLength(32);
      expect(looksLikeFeedToken(token)).toBe(true);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('recognises only that shape', () => {
    const token = generateFeedToken();
    for (const other of [
      '',
      'calfeed_',
      token.slice(0, -1),
      `${token}A`,
      ` ${token}`,
      token.replace('calfeed_', 'CALFEED_'),
      `${token.slice(0, -1)}=`,
    ]) {
      expect({ other, accepted: looksLikeFeedToken(other) }).toEqual({ other, accepted: false });
    }
  });

  it('keeps the SHA-256 of the whole token as hex and compares hashes exactly', () => {
    const hash = hashFeedToken('calfeed_abc');
    // printf 'calfeed_abc' | sha256sum
    expect(hash).toBe('769e7cf940e3ea2242ed579177df2965fdabc02f08390f5673c039594a90959d');
    expect(sameHash(hash, hashFeedToken('calfeed_abc'))).toBe(true);
    expect(sameHash(hash, hashFeedToken('calfeed_abd'))).toBe(false);
    expect(sameHash(hash, hash.slice(0, 63))).toBe(false);
  });

  it('takes every token value out of a request target for the log', () => {
    expect(redactFeedTokens('/wp-json/tribe/events/v1/events.ics?token=calfeed_secret&search=x')).toBe(
      '/wp-json/tribe/events/v1/events.ics?token=[REDACTED]&search=x',
    );
    expect(redactFeedTokens('/?rest_route=/tribe/events/v1/events.ics&TOKEN=a&token=b&token%5B%5D=c&token[]=d&tokens=e')).toBe(
      '/?rest_route=/tribe/events/v1/events.ics&TOKEN=[REDACTED]&token=[REDACTED]&token%5B%5D=[REDACTED]&token[]=[REDACTED]&tokens=e',
    );
    expect(redactFeedTokens('/wp-json/tribe/events/v1/events?mytoken=a')).toBe('/wp-json/tribe/events/v1/events?mytoken=a');
  });
});
