import { generatePassword, hashPassword, isAcceptablePassword, verifyPassword } from './password-hash.js';

describe('password hashing', () => {
  it('verifies the password it hashed and nothing else', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(stored).not.toContain('correct horse');
    await expect(verifyPassword('correct horse', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horsE', stored)).resolves.toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same-password')).not.toBe(await hashPassword('same-password'));
  });

  it('refuses stored values of another scheme', async () => {
    await expect(verifyPassword('x', 'md5$abc')).resolves.toBe(false);
  });

  it('generates 24 alphanumeric characters', () => {
    const passwords = new Set(Array.from({ length: 50 }, () => generatePassword()));
    expect(passwords.size).toBe(50);
    for (const password of passwords) expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
  });

  it.each([
    ['abcdefgh', true],
    ['a'.repeat(128), true],
    ['short', false],
    ['a'.repeat(129), false],
    ['has space1', false],
    ['tab\there1', false],
    ['ctrl\u0001abcd', false],
  ])('accepts %j: %s', (password, accepted) => {
    expect(isAcceptablePassword(password)).toBe(accepted);
  });
});
