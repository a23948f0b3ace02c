import { Invalid } from '../../common/validation/param.js';
import { organizerInput, venueInput } from './relation-inputs.js';

/** More digits than a JavaScript number holds exactly: no row can have this id. */
const UNSAFE = '99999999999999999999';

describe('the venue and organizer of an event write', () => {
  it('takes ids as numbers, digits, `{id}` objects and comma lists', () => {
    expect(venueInput(12, 'venue')).toEqual({ kind: 'id', id: 12 });
    expect(venueInput(' 12 ', 'venue')).toEqual({ kind: 'id', id: 12 });
    expect(venueInput({ id: '12' }, 'venue')).toEqual({ kind: 'id', id: 12 });
    expect(organizerInput('3, 4', 'organizer')).toEqual([
      { kind: 'id', id: 3 },
      { kind: 'id', id: 4 },
    ]);
  });

  it('refuses an id no row can have, as digits or in an object as it does other text that names no venue', () => {
    for (const raw of [UNSAFE, { id: UNSAFE }, '1.5', '-3', '0012x'])
      expect([raw, venueInput(raw, 'venue')]).toEqual([raw, new Invalid({ key: 'unknown_venue' })]);
    // a number that is no id is of the wrong type
    expect(venueInput(Number(UNSAFE), 'venue')).toMatchObject({ problem: { key: 'integer', detailsCode: 'rest_invalid_type' } });
    for (const raw of [`3, ${UNSAFE}`, [3, UNSAFE], [{ id: UNSAFE }]])
      expect([raw, organizerInput(raw, 'organizer')]).toEqual([raw, new Invalid({ key: 'unknown_organizer' })]);
  });
});
