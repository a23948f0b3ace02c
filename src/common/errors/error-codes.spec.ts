import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_ERROR_CODES, MESSAGE_VARIANTS } from './error-codes.js';

const I18N = join(process.cwd(), 'src', 'i18n');
const editions = readdirSync(I18N, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

describe('error code catalogue', () => {
  it('lists each code once', () => {
    expect(new Set(ALL_ERROR_CODES).size).toBe(ALL_ERROR_CODES.length);
  });

  it.each(editions)('matches the messages of the %s edition exactly', (edition) => {
    const messages = JSON.parse(readFileSync(join(I18N, edition, 'errors.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(messages).sort()).toEqual([...ALL_ERROR_CODES, ...Object.values(MESSAGE_VARIANTS)].sort());
  });
});
