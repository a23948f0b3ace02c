import { linksFromColumns } from './event-link-columns.js';

describe('linksFromColumns', () => {
  it('reads the organizers by position then id, and the terms by id, as the link tables give them', () => {
    expect(linksFromColumns(7, { organizer_links: '12:1,30:0,4:1', category_links: '9,3', tag_links: '15' })).toEqual({
      organizers: [
        { eventId: 7, organizerId: 30, position: 0 },
        { eventId: 7, organizerId: 4, position: 1 },
        { eventId: 7, organizerId: 12, position: 1 },
      ],
      categories: [
        { eventId: 7, termId: 3, extra: 0 },
        { eventId: 7, termId: 9, extra: 0 },
      ],
      tags: [{ eventId: 7, termId: 15, extra: 0 }],
    });
  });

  it('reads no links from NULL and empty columns', () => {
    expect(linksFromColumns(1, { organizer_links: null, category_links: '', tag_links: null })).toEqual({
      organizers: [],
      categories: [],
      tags: [],
    });
  });

  it('sorts ids as numbers, not as text', () => {
    expect(
      linksFromColumns(1, { organizer_links: null, category_links: '100,20,3', tag_links: null }).categories.map((link) => link.termId),
    ).toEqual([3, 20, 100]);
  });
});
