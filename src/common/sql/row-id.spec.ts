import { checkedId, isRowId, rowIdOf } from './row-id.js';

describe('isRowId', () => {
  it('takes positive whole numbers up to the largest safe integer', () => {
    for (const id of [1, 42, Number.MAX_SAFE_INTEGER]) expect(isRowId(id)).toBe(true);
  });

  it('refuses what no row can have: zero, negatives, fractions, unsafe and non-finite numbers', () => {
    for (const id of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1, Infinity, Number('1'.repeat(400)), NaN]) expect(isRowId(id)).toBe(false);
  });
});

describe('checkedId', () => {
  it('writes safe whole numbers as their digits', () => {
    expect([1, 42, 0, -3, Number.MAX_SAFE_INTEGER].map(checkedId)).toEqual(['1', '42', '0', '-3', String(Number.MAX_SAFE_INTEGER)]);
  });

  it('throws on anything else rather than write it into a statement', () => {
    for (const id of [1.5, NaN, Infinity, Number.MAX_SAFE_INTEGER + 1, '1) OR (1=1' as unknown as number])
      expect(() => checkedId(id)).toThrow(TypeError);
  });
});

describe('rowIdOf', () => {
  it('takes row ids given as numbers or as digits', () => {
    expect([7, '7', ' 42 ', String(Number.MAX_SAFE_INTEGER)].map(rowIdOf)).toEqual([7, 7, 42, Number.MAX_SAFE_INTEGER]);
  });

  it('gives null for anything else', () => {
    for (const value of [0, '0', -1, '-1', 1.5, '1.5', '1e3', '', 'abc', '99999999999999999999', null, undefined, {}, [3]])
      expect(rowIdOf(value)).toBeNull();
  });
});
