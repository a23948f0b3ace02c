import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { inTecNames } from './tec-error-names.js';

describe('inTecNames', () => {
  it('names the invalid parameters of an event write as tec/v1 sent them, keeping their messages and details', () => {
    const v1 = ApiError.invalidParams([
      { param: 'venue', key: 'unknown_venue' },
      { param: 'categories', key: 'unknown_category', args: { id: 999 }, detailsCode: 'rest_invalid_type' },
      { param: 'title', key: 'too_long', args: { max: 1000 } },
    ]);
    const tec = inTecNames('events', v1) as ApiError;
    expect(tec).toBeInstanceOf(ApiError);
    expect({ status: tec.status, code: tec.code, args: tec.args }).toEqual({
      status: 400,
      code: ErrorCode.InvalidParam,
      args: { params: 'venues, tribe_events_cat, title' },
    });
    expect(tec.extra.problems).toEqual([
      { param: 'venues', key: 'unknown_venue' },
      { param: 'tribe_events_cat', key: 'unknown_category', args: { id: 999 }, detailsCode: 'rest_invalid_type' },
      { param: 'title', key: 'too_long', args: { max: 1000 } },
    ]);
  });

  it("names a venue's or organizer's missing name `title`, and their other renamed fields", () => {
    const missing = inTecNames('venues', ApiError.missingParams(['venue'])) as ApiError;
    expect({ code: missing.code, args: missing.args, missing: missing.extra.missing }).toEqual({
      code: ErrorCode.MissingParam,
      args: { params: 'title' },
      missing: ['title'],
    });
    const venue = inTecNames('venues', ApiError.invalidParam('stateprovince', 'too_long')) as ApiError;
    expect(venue.extra.problems?.map((problem) => problem.param)).toEqual(['state_province']);
    const organizer = inTecNames(
      'organizers',
      ApiError.invalidParams([
        { param: 'organizer', key: 'a' },
        { param: 'description', key: 'b' },
      ]),
    ) as ApiError;
    expect(organizer.args.params).toBe('title, content');
    // `venue` is a venue's name, not an event's venue, only on the venue routes
    expect((inTecNames('organizers', ApiError.invalidParam('venue', 'x')) as ApiError).args.params).toBe('venue');
  });

  it('leaves other errors as they are', () => {
    const forbidden = ApiError.forbidden(true);
    expect(inTecNames('events', forbidden)).toBe(forbidden);
    const notFound = new ApiError(404, ErrorCode.PostInvalidId);
    expect(inTecNames('venues', notFound)).toBe(notFound);
    const plain = new Error('database gone');
    expect(inTecNames('events', plain)).toBe(plain);
  });
});
