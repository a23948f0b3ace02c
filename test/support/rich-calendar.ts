import { ADMIN, API, basic, type TestApp } from './test-app.js';

/** Operator settings both instances share: site zone and a custom field (dates in site time and custom fields depend on them). */
export const SHARED_SETTINGS = {
  SITE_TIMEZONE: 'America/Chicago',
  EVENT_CUSTOM_FIELDS: '[{"key":"_ecp_custom_2","label":"Dress code"}]',
};

export interface RichCalendar {
  categories: Record<string, number>;
  tags: Record<string, number>;
  venues: Record<string, number>;
  organizers: Record<string, number>;
  events: Record<string, number>;
}

/**
 * A calendar with every kind of record the importer must carry: nested categories, tags with
 * non-Latin names, venues and organizers in every status (draft, private, trash, protected),
 * events in several zones, all-day and multi-day ones, across DST changes, every status, hidden,
 * protected, trashed, with costs, images, websites, custom fields and several organizers.
 */
export async function seedRichCalendar(t: TestApp): Promise<RichCalendar> {
  const post = async (path: string, body: Record<string, unknown>) => {
    const res = await t.http().post(`${API}${path}`).set('Authorization', basic(ADMIN)).send(body);
    if (res.status !== 201 && res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as number;
  };
  const remove = async (path: string) => {
    const res = await t.http().delete(`${API}${path}`).set('Authorization', basic(ADMIN));
    if (res.status !== 200) throw new Error(`DELETE ${path}: ${res.status}`);
  };
  const c: RichCalendar = { categories: {}, tags: {}, venues: {}, organizers: {}, events: {} };
  c.categories.music = await post('/categories', { name: 'Music', description: 'All music & more' });
  c.categories.jazz = await post('/categories', { name: 'Jazz', parent: c.categories.music });
  c.categories.bebop = await post('/categories', { name: 'Bebop', parent: c.categories.jazz, description: 'Fast <b>and</b> loud' });
  c.categories.classical = await post('/categories', { name: 'Classical', parent: c.categories.music });
  c.categories.crafts = await post('/categories', { name: 'Arts & “Crafts”' });
  c.categories.empty = await post('/categories', { name: 'Lectures' });
  c.tags.outdoor = await post('/tags', { name: 'outdoor' });
  c.tags.cafe = await post('/tags', { name: 'Café' });
  c.tags.japan = await post('/tags', { name: '日本' });
  c.tags.unused = await post('/tags', { name: 'Unused tag', description: 'Never used' });

  c.venues.pier = await post('/venues', {
    venue: 'Old Pier Pavilion',
    description: 'Covered pavilion at the end of the old pier.',
    address: '12 Quay Road',
    city: 'Port Halden',
    country: 'United States',
    state: 'WI',
    zip: '54301',
    phone: '+1 920 555 0134',
    website: 'https://pier.example.net',
    geo_lat: 44.5192,
    geo_lng: -88.0198,
    show_map: true,
    show_map_link: false,
  });
  c.venues.pub = await post('/venues', {
    venue: "O'Reilly's Pub & Grill",
    address: '12 Temple Bar',
    city: 'Dublin',
    province: 'Leinster',
    country: 'Ireland',
    stateprovince: 'Co. Dublin',
    image: 'https://images.example.net/pub.png',
  });
  c.venues.draft = await post('/venues', { venue: 'Secret Warehouse', status: 'draft', city: 'London' });
  c.venues.trashed = await post('/venues', { venue: 'Demolished Hall', city: 'Gone' });
  c.venues.locked = await post('/venues', { venue: 'Members Lounge', city: 'Chicago', post_password: 'lounge-pw' });
  c.organizers.guild = await post('/organizers', {
    organizer: 'Tidewater Arts Guild',
    email: 'hi@tidewater.example',
    phone: '+1 920 555 0199',
    website: 'https://tidewater.example',
  });
  c.organizers.anna = await post('/organizers', { organizer: 'Anna O’Brien & Friends', description: 'Folk <em>trio</em>' });
  c.organizers.private = await post('/organizers', { organizer: 'Board Office', status: 'private', email: 'board@example.org' });
  c.organizers.locked = await post('/organizers', { organizer: 'Secret Society', email: 'hush@example.org', post_password: 'hush' });

  const event = (key: string, body: Record<string, unknown>) =>
    post('/events', { start_date: '2027-05-01 19:00:00', end_date: '2027-05-01 21:00:00', ...body }).then((id) => (c.events[key] = id));
  await event('lantern', {
    title: 'Harbour Lantern Walk',
    description:
      'Bring a lantern and join the walk.\n\nThe route is <strong>step-free</strong>. <a href="https://lanterns.example.net">More</a>',
    excerpt: 'Evening walk with lanterns.',
    start_date: '2027-03-20 19:30:00',
    end_date: '2027-03-20 21:00:00',
    timezone: 'America/Chicago',
    venue: c.venues.pier,
    organizer: [c.organizers.anna, c.organizers.guild],
    categories: [c.categories.jazz, c.categories.crafts],
    tags: [c.tags.outdoor, c.tags.japan],
    cost: '$5 - $12',
    website: 'https://lanterns.example.net',
    image: 'https://images.example.net/lanterns.jpg',
    featured: true,
    show_map: true,
    show_map_link: true,
    custom_fields: { _ecp_custom_2: 'Warm clothes' },
  });
  await event('berlin', {
    title: 'Berlin Spring-Forward Night Walk',
    start_date: '2027-03-27 23:00:00',
    end_date: '2027-03-28 04:00:00',
    timezone: 'Europe/Berlin',
    cost: '€6.50 - €8.50',
    categories: [c.categories.bebop],
    venue: c.venues.pub,
  });
  await event('kolkata', {
    title: 'Diwali Lights',
    start_date: '2027-10-29 18:00',
    end_date: '2027-10-29 22:00',
    timezone: 'Asia/Kolkata',
    cost: ['$10', '15 EUR'],
  });
  await event('offset', { title: 'Offset Zone Meetup', timezone: 'UTC+5.5', cost: 'Donation', sticky: true });
  await event('allday', {
    title: 'Community Clean-up Day',
    all_day: true,
    start_date: '2027-04-10',
    end_date: '2027-04-10',
    cost: 'Free',
    tags: [c.tags.cafe],
  });
  await event('multiday', {
    title: 'Folk Festival Weekend',
    all_day: true,
    start_date: '2027-07-09',
    end_date: '2027-07-11',
    organizer: [c.organizers.guild, c.organizers.anna],
    categories: [c.categories.classical],
  });
  await event('timedMulti', {
    title: 'Fall-Back Midnight Jam',
    start_date: '2027-11-06 22:00',
    end_date: '2027-11-07 03:00',
    timezone: 'America/New_York',
    cost: [23, 12, 0],
  });
  await event('literal', { title: 'Tom &amp; Jerry <b>Screening</b>', description: 'Cats & mice' });
  await event('draft', { title: 'Unannounced Headliner', status: 'draft', venue: c.venues.draft, categories: [c.categories.jazz] });
  await event('pending', { title: 'Poetry Slam', status: 'pending' });
  await event('private', { title: 'Staff Party', status: 'private', organizer: [c.organizers.private] });
  await event('future', {
    title: 'Scheduled Concert',
    status: 'future',
    date: '2030-01-15 09:00:00',
    categories: [c.categories.classical],
  });
  await event('hidden', { title: 'Hidden Soundcheck', hide_from_listings: true, venue: c.venues.pier });
  await event('protected', {
    title: 'Members-only Rehearsal',
    post_password: 'peer-secret',
    excerpt: 'Members only.',
    venue: c.venues.locked,
    organizer: [c.organizers.locked],
    categories: [c.categories.jazz],
  });
  await event('trashed', { title: 'Cancelled Rooftop Cinema', categories: [c.categories.crafts], cost: 'Free' });
  await event('past', {
    title: 'Winter Market 2024',
    start_date: '2024-12-14 10:00',
    end_date: '2024-12-14 16:00',
    date: '2024-11-01 08:00:00',
  });
  await event('trashedVenueUser', { title: 'Event at a demolished hall', venue: c.venues.trashed });
  await remove(`/events/${c.events.trashed}`);
  await remove(`/venues/${c.venues.trashed}`);
  return c;
}
