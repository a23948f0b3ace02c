import { containsPattern, escapeLike } from './like.js';

describe('LIKE patterns', () => {
  it('escapes the wildcards and the escape character itself', () => {
    expect(escapeLike('50%_off!')).toBe('50!%!_off!!');
    expect(containsPattern('Jazz_Night')).toBe('%jazz!_night%');
  });
});
