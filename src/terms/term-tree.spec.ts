import { compareTermNames, sortTermsByName } from './term-tree.js';

describe('sortTermsByName', () => {
  it('puts terms in the order of compareTermNames, in place', () => {
    const names = ['beta', 'Alpha', 'alpha', 'Gamma', 'beta', 'delta', 'Beta', ''];
    for (let seed = 1; seed <= 50; seed++) {
      // a fixed pseudo-random list of up to eight terms, names repeating
      let state = seed;
      const next = () => (state = (state * 1103515245 + 12345) % 2147483648);
      const terms = Array.from({ length: seed % 9 }, () => ({ id: next() % 20, name: names[next() % names.length] }));
      const expected = [...terms].sort(compareTermNames);
      expect(sortTermsByName(terms)).toBe(terms);
      expect(terms).toEqual(expected);
    }
  });
});
