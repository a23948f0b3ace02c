import { apiRootLink, entityTag, matchHits, noneMatchHits, parseTagList } from './entity-tags.js';

const none = () => undefined;

describe('entity tags', () => {
  it('is a strong, quoted, base64url tag of the body and the representation headers only', () => {
    const body = Buffer.from('{"a":1}');
    const tag = entityTag(body, none);
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(entityTag(Buffer.from('{"a":1}'), none)).toBe(tag);
    expect(entityTag(Buffer.from('{"a":2}'), none)).not.toBe(tag);
    const headers: Record<string, string> = { 'x-wp-total': '3', 'x-cache': 'HIT', allow: 'GET' };
    const withTotal = entityTag(body, (name) => headers[name]);
    expect(withTotal).not.toBe(tag);
    // headers outside the representation (X-Cache, Allow) do not count
    expect(entityTag(body, (name) => ({ 'x-wp-total': '3' })[name])).toBe(withTotal);
    expect(entityTag(body, (name) => ({ 'x-wp-total': '4' })[name])).not.toBe(withTotal);
    expect(entityTag(body, (name) => (name === 'link' ? apiRootLink('http://x/wp-json') : undefined))).not.toBe(tag);
  });

  it('reads lists of tags, weak tags and *', () => {
    expect(parseTagList(' * ')).toBe('*');
    expect(parseTagList('"a", W/"b",garbage, "c"')).toEqual([
      { weak: false, opaque: '"a"' },
      { weak: true, opaque: '"b"' },
      { weak: false, opaque: '"c"' },
    ]);
    expect(parseTagList('')).toEqual([]);
  });

  it('compares weakly for If-None-Match and strongly for If-Match', () => {
    expect(noneMatchHits('"x", W/"a"', '"a"')).toBe(true);
    expect(noneMatchHits('"a"', '"a"')).toBe(true);
    expect(noneMatchHits('*', '"a"')).toBe(true);
    expect(noneMatchHits('"b"', '"a"')).toBe(false);
    expect(noneMatchHits('a', '"a"')).toBe(false);
    expect(matchHits('"x", "a"', '"a"')).toBe(true);
    expect(matchHits('W/"a"', '"a"')).toBe(false);
    expect(matchHits('"A"', '"a"')).toBe(false);
    expect(matchHits('*', '"a"')).toBe(true);
  });
});
