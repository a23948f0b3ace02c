import type { AddressInfo } from 'node:net';
import { UsersService } from '../src/users/users.service.js';
import { connectTecMcpServer, prepareTecMcpServer, type TecMcpSession } from './support/tec-mcp-server.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

/**
 * The vendor's own MCP server (`../shared/clients/tec-mcp-server`, unchanged) driven over stdio by an
 * MCP client against this service's `tec/v1`, tool call by tool call, as an AI agent would drive it:
 * its start-up checks, its three tools on events, venues and organizers (create, read, list with
 * filters, update as its tool sends updates, trash, delete for good), what v1 then shows of the same
 * records, its errors, and a plain "not supported" to its ticket tools.
 */

type Json = Record<string, any>;

const CREATE_UPDATE = 'tec-calendar-create-update-entities';
const READ = 'tec-calendar-read-entities';
const DELETE = 'tec-calendar-delete-entities';

/** What a tool call gave back: its texts, and whether the server flagged it as an error. */
interface ToolAnswer {
  isError: boolean;
  texts: string[];
}

describe("the vendor's MCP server against tec/v1", () => {
  let entry: string;
  let t: TestApp;
  let url: string;
  let appPassword: string;
  let mcp: TecMcpSession;

  const call = async (name: string, args: Json): Promise<ToolAnswer> => {
    const result = await mcp.client.callTool({ name, arguments: args });
    const content = result.content as Array<{ type: string; text?: string }>;
    return { isError: result.isError === true, texts: content.map((part) => part.text ?? `[${part.type}]`) };
  };
  /** A successful call's record (or list): its second text is the JSON the site answered. */
  const ok = async (name: string, args: Json): Promise<{ summary: string; body: any }> => {
    const answer = await call(name, args);
    expect({ args, isError: answer.isError, first: answer.texts[0] }).toEqual({ args, isError: false, first: expect.any(String) });
    return { summary: answer.texts[0], body: JSON.parse(answer.texts[1]) };
  };
  /** A failed call's one line of text. */
  const failed = async (name: string, args: Json): Promise<string> => {
    const answer = await call(name, args);
    expect({ args, isError: answer.isError, parts: answer.texts.length }).toEqual({ args, isError: true, parts: 1 });
    return answer.texts[0];
  };
  const ids = (list: Json[]) => list.map((item) => item.id as number).sort((a, b) => a - b);
  const v1 = (path: string) => t.http().get(`${API}${path}`).set('Authorization', basic(ADMIN));

  beforeAll(async () => {
    // npm ci and the build, the first time on this machine (the copy is kept for later runs)
    entry = prepareTecMcpServer();
    t = await startTestApp({ SITE_TIMEZONE: 'America/New_York' });
    await t.app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    // an application password, given as WordPress shows them (groups of four)
    const created = await t.app.get(UsersService).createAppPassword(ADMIN.login, 'tec-mcp-server');
    appPassword = (created.password.match(/.{1,4}/g) as string[]).join(' ');
    mcp = await connectTecMcpServer(entry, { url, username: ADMIN.login, appPassword });
  }, 170_000);
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
  });

  it('starts after its checks of the site and offers its three tools', async () => {
    const tools = (await mcp.client.listTools()).tools.map((tool) => tool.name).sort();
    expect(tools).toEqual([CREATE_UPDATE, DELETE, READ]);
    // what it learnt at start-up (the REST root and /wp/v2/users/me; /wp/v2/settings is not served here)
    const instructions = mcp.client.getInstructions() ?? '';
    expect(instructions).toContain(`- URL: ${url}.`);
    expect(instructions).toContain('- Timezone: America/New_York.');
    expect(instructions).toContain('- Operational (REST): Yes.');
    expect(instructions).toContain('- Authentication: Valid.');
  });

  it('refuses to start with a wrong application password, saying why', async () => {
    await expect(connectTecMcpServer(entry, { url, username: ADMIN.login, appPassword: 'abcd efgh ijkl mnop qrst uvwx' })).rejects.toThrow(
      /Authentication to WordPress REST API failed \(status 401\)/,
    );
  });

  const state: { venue: number; organizer: number; launch: number; workshop: number } = { venue: 0, organizer: 0, launch: 0, workshop: 0 };

  it('creates a venue and an organizer, which v1 shows too', async () => {
    const venue = await ok(CREATE_UPDATE, {
      postType: 'venue',
      data: { title: 'Riverside Hall', address: '12 Quay Street', city: 'Springfield', country: 'United States', zip: '01101' },
    });
    state.venue = venue.body.id;
    expect(venue.summary).toBe(`Successfully created venue with ID: ${state.venue}`);
    expect(venue.body).toEqual(
      expect.objectContaining({
        type: 'tribe_venue',
        status: 'publish',
        title: { rendered: 'Riverside Hall' },
        address: '12 Quay Street',
        city: 'Springfield',
        country: 'United States',
        zip: '01101',
      }),
    );
    const organizer = await ok(CREATE_UPDATE, {
      postType: 'organizer',
      data: {
        title: 'Harbour Arts Trust',
        email: 'hello@harbour-arts.example',
        phone: '+1 413 555 0100',
        website: 'https://harbour-arts.example/',
      },
    });
    state.organizer = organizer.body.id;
    expect(organizer.summary).toBe(`Successfully created organizer with ID: ${state.organizer}`);
    expect(organizer.body).toEqual(
      expect.objectContaining({
        type: 'tribe_organizer',
        status: 'publish',
        title: { rendered: 'Harbour Arts Trust' },
        email: 'hello@harbour-arts.example',
        phone: '+1 413 555 0100',
      }),
    );

    const v1Venue = await v1(`/venues/${state.venue}`);
    expect(v1Venue.status).toBe(200);
    expect(v1Venue.body).toEqual(
      expect.objectContaining({
        venue: 'Riverside Hall',
        address: '12 Quay Street',
        city: 'Springfield',
        country: 'United States',
        zip: '01101',
      }),
    );
    const v1Organizer = await v1(`/organizers/${state.organizer}`);
    expect(v1Organizer.status).toBe(200);
    expect(v1Organizer.body).toEqual(
      expect.objectContaining({ organizer: 'Harbour Arts Trust', email: 'hello@harbour-arts.example', phone: '+1 413 555 0100' }),
    );
  });

  it('creates events with them, in the site time zone, which v1 shows too', async () => {
    const launch = await ok(CREATE_UPDATE, {
      postType: 'event',
      data: {
        title: 'Harbour Lights Launch',
        content: 'Lights along the quay.',
        start_date: '2030-05-01 18:00:00',
        end_date: '2030-05-01 21:30:00',
        venues: [state.venue],
        organizers: [state.organizer],
        cost: '15',
        featured: true,
      },
    });
    state.launch = launch.body.id;
    expect(launch.summary).toBe(`Successfully created event with ID: ${state.launch}`);
    expect(launch.body).toEqual(
      expect.objectContaining({
        type: 'tribe_events',
        status: 'publish',
        title: { rendered: 'Harbour Lights Launch' },
        start_date: '2030-05-01 18:00:00',
        end_date: '2030-05-01 21:30:00',
        start_date_utc: '2030-05-01 22:00:00',
        end_date_utc: '2030-05-02 01:30:00',
        timezone: 'America/New_York',
        featured: true,
        organizer_names: ['Harbour Arts Trust'],
      }),
    );
    expect(launch.body.venues.map((venue: Json) => [venue.id, venue.title.rendered])).toEqual([[state.venue, 'Riverside Hall']]);
    expect(launch.body.organizers.map((organizer: Json) => organizer.id)).toEqual([state.organizer]);

    // a draft, its dates in ISO form: the tool writes them as the API wants them
    const workshop = await ok(CREATE_UPDATE, {
      postType: 'event',
      data: { title: 'Lantern Making Workshop', start_date: '2030-06-08T10:00:00', end_date: '2030-06-08T12:00:00', status: 'draft' },
    });
    state.workshop = workshop.body.id;
    expect(workshop.body).toEqual(
      expect.objectContaining({
        status: 'draft',
        title: { rendered: 'Lantern Making Workshop' },
        start_date: '2030-06-08 10:00:00',
        end_date: '2030-06-08 12:00:00',
        venues: [],
        organizers: [],
      }),
    );

    const v1Launch = await v1(`/events/${state.launch}`);
    expect(v1Launch.status).toBe(200);
    expect(v1Launch.body).toEqual(
      expect.objectContaining({
        title: 'Harbour Lights Launch',
        status: 'publish',
        start_date: '2030-05-01 18:00:00',
        end_date: '2030-05-01 21:30:00',
        utc_start_date: '2030-05-01 22:00:00',
        timezone: 'America/New_York',
        featured: true,
      }),
    );
    expect(v1Launch.body.description).toContain('Lights along the quay.');
    expect(v1Launch.body.cost).toContain('15');
    expect(v1Launch.body.venue.id).toBe(state.venue);
    expect(v1Launch.body.organizer.map((organizer: Json) => organizer.id)).toEqual([state.organizer]);
    const v1Workshop = await v1(`/events/${state.workshop}`);
    expect(v1Workshop.body).toEqual(expect.objectContaining({ status: 'draft', start_date: '2030-06-08 10:00:00' }));
  });

  it('reads one record, and lists with filters that filter', async () => {
    const one = await ok(READ, { postType: 'event', id: state.launch });
    expect(one.summary).toBe(`Retrieved event with ID ${state.launch}`);
    expect(one.body).toEqual(expect.objectContaining({ id: state.launch, title: { rendered: 'Harbour Lights Launch' } }));

    const all = await ok(READ, { postType: 'event', status: ['publish', 'draft'] });
    expect(all.summary).toBe('Found 2 events');
    // by start, the earliest first
    expect(all.body.map((event: Json) => event.id)).toEqual([state.launch, state.workshop]);
    expect(ids((await ok(READ, { postType: 'event' })).body)).toEqual([state.launch]);

    const search = await ok(READ, { postType: 'event', query: 'lantern', status: 'publish,draft' });
    expect(search.summary).toBe('Found 1 event matching "lantern"');
    expect(ids(search.body)).toEqual([state.workshop]);
    const filters: Array<[Json, number[]]> = [
      [{ venue: state.venue }, [state.launch]],
      [{ organizer: state.organizer }, [state.launch]],
      [{ featured: true }, [state.launch]],
      [{ featured: false }, [state.workshop]],
      [{ start_date: '2030-06-01' }, [state.workshop]],
      [{ end_date: '2030-05-31' }, [state.launch]],
      [{ start_date: '2030-01-01', end_date: '2030-12-31' }, [state.launch, state.workshop]],
      [{ start_date: '2031-01-01' }, []],
    ];
    for (const [eventFilters, expected] of filters) {
      const list = await ok(READ, { postType: 'event', status: ['publish', 'draft'], eventFilters });
      expect({ eventFilters, ids: ids(list.body) }).toEqual({ eventFilters, ids: expected });
    }
    const paged = await ok(READ, { postType: 'event', status: ['publish', 'draft'], per_page: 1, page: 2 });
    expect(ids(paged.body)).toEqual([state.workshop]);

    const venues = await ok(READ, { postType: 'venue', query: 'Riverside' });
    expect(venues.summary).toBe('Found 1 venue matching "Riverside"');
    expect(venues.body.map((venue: Json) => [venue.id, venue.city])).toEqual([[state.venue, 'Springfield']]);
    expect(ids((await ok(READ, { postType: 'venue', query: 'Nowhere' })).body)).toEqual([]);
    // the venue list as its TOOLS_GUIDE.md writes it (venue lists take no `order`: ignored, as at the reference)
    expect(
      ids((await ok(READ, { postType: 'venue', per_page: 20, page: 1, status: 'publish', order: 'desc', orderby: 'date' })).body),
    ).toEqual([state.venue]);
    const organizers = await ok(READ, { postType: 'organizer' });
    expect(organizers.body.map((organizer: Json) => [organizer.id, organizer.email])).toEqual([
      [state.organizer, 'hello@harbour-arts.example'],
    ]);
    expect(ids((await ok(READ, { postType: 'organizer', query: 'Harbour' })).body)).toEqual([state.organizer]);
    // what tec/v1 does not declare is ignored, as at the reference (docs/API.md)
    expect(ids((await ok(READ, { postType: 'venue', venueFilters: { city: 'Nowhere' } })).body)).toEqual([state.venue]);
    expect(ids((await ok(READ, { postType: 'organizer', organizerFilters: { email: 'nobody@example.org' } })).body)).toEqual([
      state.organizer,
    ]);
    expect(ids((await ok(READ, { postType: 'event', status: 'publish,draft', include: [state.workshop] })).body)).toEqual([
      state.launch,
      state.workshop,
    ]);
  });

  it('updates as its tool sends updates (PUT with the fields given), which v1 shows too', async () => {
    // the tool wants both dates of an event on every update and adds `status: publish` when none is given
    const moved = await ok(CREATE_UPDATE, {
      postType: 'event',
      id: state.launch,
      data: { title: 'Harbour Lights Launch (moved)', start_date: '2030-05-02 19:00:00', end_date: '2030-05-02 22:00:00' },
    });
    expect(moved.summary).toBe(`Successfully updated event with ID: ${state.launch}`);
    expect(moved.body).toEqual(
      expect.objectContaining({
        id: state.launch,
        title: { rendered: 'Harbour Lights Launch (moved)' },
        start_date: '2030-05-02 19:00:00',
        end_date: '2030-05-02 22:00:00',
        duration: String(3 * 3600),
        featured: true,
        organizer_names: ['Harbour Arts Trust'],
      }),
    );
    // what the update does not name stays
    expect(moved.body.venues.map((venue: Json) => venue.id)).toEqual([state.venue]);
    expect(moved.body.content.rendered).toContain('Lights along the quay.');

    const venue = await ok(CREATE_UPDATE, {
      postType: 'venue',
      id: state.venue,
      data: { title: 'Riverside Hall East', city: 'Shelbyville' },
    });
    expect(venue.body).toEqual(
      expect.objectContaining({ title: { rendered: 'Riverside Hall East' }, city: 'Shelbyville', address: '12 Quay Street', zip: '01101' }),
    );
    const organizer = await ok(CREATE_UPDATE, {
      postType: 'organizer',
      id: state.organizer,
      data: { email: 'events@harbour-arts.example' },
    });
    expect(organizer.body).toEqual(
      expect.objectContaining({
        title: { rendered: 'Harbour Arts Trust' },
        email: 'events@harbour-arts.example',
        phone: '+1 413 555 0100',
      }),
    );

    const v1Launch = await v1(`/events/${state.launch}`);
    expect(v1Launch.body).toEqual(
      expect.objectContaining({
        title: 'Harbour Lights Launch (moved)',
        start_date: '2030-05-02 19:00:00',
        end_date: '2030-05-02 22:00:00',
      }),
    );
    expect(v1Launch.body.venue).toEqual(expect.objectContaining({ id: state.venue, venue: 'Riverside Hall East', city: 'Shelbyville' }));
    expect(v1Launch.body.organizer[0]).toEqual(expect.objectContaining({ id: state.organizer, email: 'events@harbour-arts.example' }));

    // an update that names a status: the draft stays a draft
    const stillDraft = await ok(CREATE_UPDATE, {
      postType: 'event',
      id: state.workshop,
      data: { title: 'Lantern Workshop', start_date: '2030-06-08 10:00:00', end_date: '2030-06-08 12:30:00', status: 'draft' },
    });
    expect(stillDraft.body).toEqual(
      expect.objectContaining({ status: 'draft', title: { rendered: 'Lantern Workshop' }, end_date: '2030-06-08 12:30:00' }),
    );
    expect((await v1(`/events/${state.workshop}`)).body).toEqual(expect.objectContaining({ status: 'draft', title: 'Lantern Workshop' }));
  });

  it('passes on our errors with their status, message and code', async () => {
    expect(await failed(READ, { postType: 'event', id: 999999 })).toBe(
      'Error 404: There is no record of this kind with this ID. (rest_post_invalid_id)',
    );
    // a venue's id read as an event
    expect(await failed(READ, { postType: 'event', id: state.venue })).toMatch(/^Error 404: .*\(rest_post_invalid_id\)$/);
    expect(await failed(CREATE_UPDATE, { postType: 'organizer', id: 999999, data: { title: 'Nobody' } })).toMatch(
      /^Error 404: .*\(rest_post_invalid_id\)$/,
    );
    // its `order` is lower case, the reference's is upper case: refused as at the reference, the argument named
    expect(await failed(READ, { postType: 'event', order: 'asc' })).toMatch(/^Error 400: .*order.*\(rest_invalid_param\)/);
    // an organizer's id as the venue filter
    expect(await failed(READ, { postType: 'event', eventFilters: { venue: state.organizer } })).toMatch(
      /^Error 400: .*venue.*\(rest_invalid_param\)/,
    );
    // an unknown venue or category on an event: named as the tool sent them (not as v1 names them)
    const ghost = { title: 'Ghost Concert', start_date: '2030-07-01 20:00:00', end_date: '2030-07-01 22:00:00' };
    expect(await failed(CREATE_UPDATE, { postType: 'event', data: { ...ghost, venues: [999999] } })).toMatch(
      /^Error 400: These parameters are invalid: venues \(rest_invalid_param\)/,
    );
    expect(await failed(CREATE_UPDATE, { postType: 'event', data: { ...ghost, tribe_events_cat: [999999] } })).toMatch(
      /^Error 400: These parameters are invalid: tribe_events_cat \(rest_invalid_param\)/,
    );
    expect(
      await failed(CREATE_UPDATE, {
        postType: 'event',
        id: state.launch,
        data: { ...ghost, title: 'Harbour Lights Launch (moved)', organizers: [999999] },
      }),
    ).toMatch(/^Error 400: These parameters are invalid: organizers \(rest_invalid_param\)/);
    // nothing was created by the refused write
    expect((await ok(READ, { postType: 'event', query: 'Ghost' })).body).toEqual([]);
  });

  it('gets a clear "not supported" from every ticket tool', async () => {
    const notSupported = /^Error 501: Tickets are not supported by this service.*\(tec_rest_tickets_not_supported\)$/;
    expect(await failed(READ, { postType: 'ticket' })).toMatch(notSupported);
    expect(await failed(READ, { postType: 'ticket', id: 5 })).toMatch(notSupported);
    expect(await failed(READ, { postType: 'ticket', ticketFilters: { event: state.launch } })).toMatch(notSupported);
    // without sale dates it reads the event first (which works), then creates the ticket
    expect(await failed(CREATE_UPDATE, { postType: 'ticket', data: { title: 'Lantern pass', event: state.launch, price: 10 } })).toMatch(
      notSupported,
    );
    expect(await failed(CREATE_UPDATE, { postType: 'ticket', id: 5, data: { title: 'Lantern pass' } })).toMatch(notSupported);
    expect(await failed(DELETE, { postType: 'ticket', id: 5 })).toMatch(notSupported);
    expect(await failed(DELETE, { postType: 'ticket', id: 5, force: true })).toMatch(notSupported);
  });

  let sessions = 0;
  /** A second server for another user or URL, used by `body` as the current one, stopped afterwards. */
  const withSession = async (site: { url: string; login: string }, body: () => Promise<void>) => {
    const created = await t.app.get(UsersService).createAppPassword(site.login, `tec-mcp-server-${++sessions}`);
    const main = mcp;
    mcp = await connectTecMcpServer(entry, { url: site.url, username: site.login, appPassword: created.password });
    try {
      await body();
    } finally {
      await mcp.close();
      mcp = main;
    }
  };

  it('works for a contributor within what v1 lets a contributor do', async () => {
    const contributor = await t.user('contributor');
    await withSession({ url, login: contributor.login }, async () => {
      // the tool asks for `publish`; a contributor's event waits for review, as through v1
      const event = await ok(CREATE_UPDATE, {
        postType: 'event',
        data: { title: 'Quayside Busking', start_date: '2030-07-04 15:00:00', end_date: '2030-07-04 17:00:00', venues: [state.venue] },
      });
      expect(event.body).toEqual(
        expect.objectContaining({ status: 'pending', author: contributor.id, title: { rendered: 'Quayside Busking' } }),
      );
      expect((await v1(`/events/${event.body.id}`)).body).toEqual(
        expect.objectContaining({ status: 'pending', title: 'Quayside Busking' }),
      );
      // someone else's event is not theirs to change or trash
      const forbidden = /^Error 403: .*\(rest_forbidden\)$/;
      expect(
        await failed(CREATE_UPDATE, {
          postType: 'event',
          id: state.launch,
          data: { title: 'Taken over', start_date: '2030-05-02 19:00:00', end_date: '2030-05-02 22:00:00' },
        }),
      ).toMatch(forbidden);
      expect(await failed(DELETE, { postType: 'event', id: state.launch })).toMatch(forbidden);
      expect((await v1(`/events/${state.launch}`)).body.title).toBe('Harbour Lights Launch (moved)');
      // the administrator's draft stays out of their lists
      expect(ids((await ok(READ, { postType: 'event', status: 'publish,draft,pending' })).body)).toEqual([state.launch, event.body.id]);
      expect((await call(DELETE, { postType: 'event', id: event.body.id, force: true })).isError).toBe(false);
    });
  });

  it('speaks the language of the edition its URL names', async () => {
    await withSession({ url: `${url}/de`, login: ADMIN.login }, async () => {
      expect(mcp.client.getInstructions()).toContain(`- URL: ${url}/de.`);
      expect(await failed(READ, { postType: 'event', id: 999999 })).toBe(
        'Error 404: Es gibt keinen Datensatz dieser Art mit dieser ID. (rest_post_invalid_id)',
      );
      expect(await failed(READ, { postType: 'ticket' })).toMatch(
        /^Error 501: Tickets werden von diesem Dienst nicht unterstützt.*\(tec_rest_tickets_not_supported\)$/,
      );
      expect((await ok(READ, { postType: 'event', id: state.launch })).body.title).toEqual({ rendered: 'Harbour Lights Launch (moved)' });
    });
  });

  it('trashes, then deletes for good, as v1 sees it', async () => {
    const trashed = await call(DELETE, { postType: 'event', id: state.launch });
    expect(trashed).toEqual({ isError: false, texts: [`Successfully moved to trash event with ID: ${state.launch}`, '[]'] });
    expect(await failed(READ, { postType: 'event', id: state.launch })).toMatch(/^Error 404: .*\(rest_post_invalid_id\)$/);
    expect(ids((await ok(READ, { postType: 'event', status: ['publish', 'draft'] })).body)).toEqual([state.workshop]);
    const v1Trashed = await v1(`/events/${state.launch}`);
    expect({ status: v1Trashed.status, code: v1Trashed.body.code }).toEqual({ status: 403, code: 'event-no-longer-available' });
    expect(await failed(DELETE, { postType: 'event', id: state.launch })).toMatch(/^Error 410: .*\(event-is-in-trash\)$/);

    const gone = await call(DELETE, { postType: 'event', id: state.launch, force: true });
    expect(gone).toEqual({ isError: false, texts: [`Successfully permanently deleted event with ID: ${state.launch}`, '[]'] });
    expect((await v1(`/events/${state.launch}`)).status).toBe(404);

    // a venue to the trash: v1 shows it trashed; then for good
    expect((await call(DELETE, { postType: 'venue', id: state.venue })).isError).toBe(false);
    expect((await v1(`/venues/${state.venue}`)).body.status).toBe('trash');
    expect((await call(DELETE, { postType: 'venue', id: state.venue, force: true })).isError).toBe(false);
    // v1 answers an id that is no venue (any more) as it answers any id that is not one: 400 on the argument
    const v1Venue = await v1(`/venues/${state.venue}`);
    expect({ status: v1Venue.status, code: v1Venue.body.code }).toEqual({ status: 400, code: 'rest_invalid_param' });
    // an organizer not in the trash yet, for good at once; the draft event for good too
    expect((await call(DELETE, { postType: 'organizer', id: state.organizer, force: true })).texts[0]).toBe(
      `Successfully permanently deleted organizer with ID: ${state.organizer}`,
    );
    const v1Organizer = await v1(`/organizers/${state.organizer}`);
    expect({ status: v1Organizer.status, code: v1Organizer.body.code }).toEqual({ status: 400, code: 'rest_invalid_param' });
    expect((await call(DELETE, { postType: 'event', id: state.workshop, force: true })).isError).toBe(false);

    for (const postType of ['event', 'venue', 'organizer'])
      expect({ postType, list: (await ok(READ, { postType, status: 'publish,draft' })).body }).toEqual({ postType, list: [] });
    expect(await failed(DELETE, { postType: 'venue', id: state.venue })).toMatch(/^Error 404: .*\(rest_post_invalid_id\)$/);
  });
});
