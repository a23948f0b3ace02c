import { fieldsToWrite, SYNCED_FIELDS, type FieldHashes } from './source-fields.js';

const hashes = (changes: Partial<FieldHashes> = {}): FieldHashes =>
  ({ ...Object.fromEntries(SYNCED_FIELDS.map((field) => [field, `${field}-0`])), ...changes }) as FieldHashes;

describe('the fields a sync writes', () => {
  const lastFeed = hashes();
  const lastLocal = hashes();
  const feedMovedIt = hashes({ dates: 'dates-1', title: 'title-1' });
  const editedTitle = hashes({ title: 'title-here' });

  it('writes nothing when neither the feed nor anybody here changed anything', () => {
    for (const authority of ['overwrite', 'keep-local-edits', 'create-only'] as const)
      expect(fieldsToWrite(authority, lastFeed, lastFeed, lastLocal, lastLocal)).toEqual({ fields: new Set(), kept: false });
  });

  it('overwrite: what the feed changed and what was edited here', () => {
    expect(fieldsToWrite('overwrite', feedMovedIt, lastFeed, editedTitle, lastLocal).fields).toEqual(new Set(['title', 'dates']));
    expect(fieldsToWrite('overwrite', lastFeed, lastFeed, editedTitle, lastLocal).fields).toEqual(new Set(['title']));
  });

  it('keep-local-edits: what the feed changed, except fields edited here', () => {
    expect(fieldsToWrite('keep-local-edits', feedMovedIt, lastFeed, editedTitle, lastLocal)).toEqual({
      fields: new Set(['dates']),
      kept: true,
    });
    expect(fieldsToWrite('keep-local-edits', lastFeed, lastFeed, editedTitle, lastLocal).fields).toEqual(new Set());
  });

  it("create-only: nothing, the feed's changes counted as kept", () => {
    expect(fieldsToWrite('create-only', feedMovedIt, lastFeed, lastLocal, lastLocal)).toEqual({ fields: new Set(), kept: true });
  });
});
