import ICAL from 'ical.js';
import { ADMIN_AUTH } from './support/events.js';
import { API, basic, startTestApp, type TestApp } from './support/test-app.js';

interface Occurrence {
  id: number;
  title: string;
  status: string;
  slug: string;
  start_date: string;
  end_date: string;
  parent?: unknown;
  recurrence: { series_id: number; rules: string[]; is_main: boolean; original_start: string } | null;
}

describe('recurring events: recurrence_scope on updates and deletes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const weekly = async (title: string, rule = 'RRULE:FREQ=WEEKLY;COUNT=6') => {
    const res = await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', ADMIN_AUTH)
      .send({ title, timezone: 'UTC', start_date: '2031-01-06 10:00:00', end_date: '2031-01-06 11:00:00', recurrence: [rule] });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  const update = (id: number, body: Record<string, unknown>, query = '') =>
    t.http().post(`${API}/events/${id}${query}`).set('Authorization', ADMIN_AUTH).send(body);
  const remove = (id: number, query = '') => t.http().delete(`${API}/events/${id}${query}`).set('Authorization', ADMIN_AUTH);
  /** The live events of a series, main event first, in start order. */
  const members = async (mainId: number) => {
    const res = await t.http().get(`${API}/series/${mainId}/occurrences?per_page=50`).set('Authorization', ADMIN_AUTH);
    expect(res.status).toBe(200);
    return res.body.events as Occurrence[];
  };
  const read = async (id: number) => (await t.http().get(`${API}/events/${id}`).set('Authorization', ADMIN_AUTH)).body as Occurrence;
  const status = async (id: number) =>
    (
      (await t.http().get(`${API}/events?include=${id}&status=trash,publish`).set('Authorization', ADMIN_AUTH)).body.events as Occurrence[]
    )[0]?.status;
  const parentOf = async (id: number) =>
    ((await t.http().get(`${API}/events/${id}`).set('Authorization', ADMIN_AUTH)).body as { recurrence: { series_id: number } | null })
      .recurrence?.series_id;

  describe('defaults and invalid values', () => {
    it('edits only the occurrence by default (it becomes an exception) and the whole series from the main event', async () => {
      const mainId = await weekly('Default Scope');
      const [, second, third] = await members(mainId);
      expect((await update(second.id, { title: 'Only Me' })).status).toBe(200);
      expect((await update(mainId, { title: 'Everyone' })).status).toBe(200);
      const titles = (await members(mainId)).map((event) => [event.id, event.title]);
      expect(titles.slice(0, 3)).toEqual([
        [mainId, 'Everyone'],
        [second.id, 'Only Me'],
        [third.id, 'Everyone'],
      ]);
    });

    it('refuses an unknown scope with 400 rest_invalid_param naming recurrence_scope, in the body, the query and on delete', async () => {
      const mainId = await weekly('Bad Scope');
      for (const res of [
        await update(mainId, { title: 'x', recurrence_scope: 'everything' }),
        await update(mainId, { title: 'x' }, '?recurrence_scope=some'),
        await remove(mainId, '?recurrence_scope=nope'),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('rest_invalid_param');
        expect(Object.keys(res.body.data.params)).toEqual(['recurrence_scope']);
      }
      expect((await read(mainId)).title).toBe('Bad Scope');
    });

    it('documents recurrence_scope in /doc on every update and delete route, translated', async () => {
      for (const prefix of ['', '/de']) {
        const doc = await t.http().get(`${prefix}${API}/doc`);
        expect(doc.status).toBe(200);
        for (const path of ['/events/{id}', '/events/by-slug/{slug}']) {
          for (const method of ['post', 'put', 'patch', 'delete']) {
            const operation = doc.body.paths[path][method] as { parameters: Array<{ name: string; in: string; description: string }> };
            const param = operation.parameters.find((candidate) => candidate.name === 'recurrence_scope');
            expect(param).toMatchObject({ in: 'query' });
            expect(param?.description.startsWith(prefix === '' ? 'Extension: which occurrences' : 'Erweiterung: welche Termine')).toBe(
              true,
            );
          }
        }
      }
    });

    it('accepts and ignores the scope on a single event', async () => {
      const single = await t
        .http()
        .post(`${API}/events`)
        .set('Authorization', ADMIN_AUTH)
        .send({ title: 'Lone Concert', start_date: '2031-02-01 20:00:00', end_date: '2031-02-01 22:00:00' });
      const res = await update(single.body.id, { title: 'Lone Concert II', recurrence_scope: 'following' });
      expect(res.status).toBe(200);
      expect(res.body.recurrence).toBeNull();
      expect((await remove(single.body.id, '?recurrence_scope=all')).status).toBe(200);
    });
  });

  describe('scope this', () => {
    it('edits the main event alone: it becomes an exception, the series keeps its start and rule', async () => {
      const mainId = await weekly('Main Alone');
      const before = await members(mainId);
      const res = await update(
        mainId,
        { title: 'Main Moved', start_date: '2031-01-07 15:00:00', end_date: '2031-01-07 16:00:00' },
        '?recurrence_scope=this',
      );
      expect(res.status).toBe(200);
      expect(res.body.recurrence).toMatchObject({ series_id: mainId, is_main: true, original_start: '2031-01-06 10:00:00' });
      const after = await members(mainId);
      expect(after.map((event) => [event.id, event.title, event.start_date])).toEqual([
        [mainId, 'Main Moved', '2031-01-07 15:00:00'],
        ...before.slice(1).map((event) => [event.id, 'Main Alone', event.start_date]),
      ]);
      expect((await t.http().get(`${API}/series/${mainId}`)).body.exceptions_total).toBe(1);
      // a later edit of the whole series still expands the rule from the series' start, and passes on only what it changed
      expect((await update(mainId, { cost: '5' })).status).toBe(200);
      const later = await members(mainId);
      expect(later.map((event) => event.start_date)).toEqual(after.map((event) => event.start_date));
      expect(later.map((event) => [event.title, (event as unknown as { cost: string }).cost])).toEqual([
        ['Main Moved', '$5'],
        ...before.slice(1).map(() => ['Main Alone', '$5']),
      ]);
    });

    it('writes the rule of a series whose main event was edited alone from the series start, the main event as an exception', async () => {
      const res = await t
        .http()
        .post(`${API}/events`)
        .set('Authorization', ADMIN_AUTH)
        .send({
          title: 'Tide Talk',
          timezone: 'Europe/Berlin',
          start_date: '2031-05-05 18:00:00',
          end_date: '2031-05-05 19:00:00',
          recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
        });
      const mainId = res.body.id as number;
      const moved = await update(
        mainId,
        { title: 'Tide Talk (opening)', start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 22:00:00' },
        '?recurrence_scope=this',
      );
      expect(moved.status).toBe(200);
      const ics = await t.http().get(`${API}/events.ics?search=tide+talk&start_date=2031-05-01&end_date=2031-06-30`);
      expect(ics.status).toBe(200);
      const calendar = new ICAL.Component(ICAL.parse(ics.text));
      ICAL.TimezoneService.reset();
      for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(new ICAL.Timezone(zone));
      const [master, ...exceptions] = calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent));
      expect(exceptions).toHaveLength(1);
      master.relateException(exceptions[0]);
      const shown: string[] = [];
      const iterator = master.iterator();
      for (let next = iterator.next(); next; next = iterator.next()) {
        const details = master.getOccurrenceDetails(next);
        shown.push(`${details.startDate.toJSDate().toISOString()} ${details.endDate.toJSDate().toISOString()} ${details.item.summary}`);
      }
      expect(shown).toEqual([
        '2031-05-06T18:00:00.000Z 2031-05-06T20:00:00.000Z Tide Talk (opening)',
        '2031-05-12T16:00:00.000Z 2031-05-12T17:00:00.000Z Tide Talk',
        '2031-05-19T16:00:00.000Z 2031-05-19T17:00:00.000Z Tide Talk',
      ]);
    });

    it('refuses a rule with scope this on the main event, and deleting the main event alone', async () => {
      const mainId = await weekly('Main Rule');
      const res = await update(mainId, { recurrence: ['RRULE:FREQ=DAILY;COUNT=2'], recurrence_scope: 'this' });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.data.params)).toEqual(['recurrence']);
      const deleted = await remove(mainId, '?recurrence_scope=this');
      expect(deleted.status).toBe(400);
      expect(Object.keys(deleted.body.data.params)).toEqual(['recurrence_scope']);
      expect(await status(mainId)).toBe('publish');
    });
  });

  describe('scope all through an occurrence', () => {
    it("edits the whole series as if on the main event, moving every start by the occurrence's shift", async () => {
      const mainId = await weekly('All Through');
      const before = await members(mainId);
      const exception = before[4];
      expect((await update(exception.id, { title: 'Exception' })).status).toBe(200);
      const res = await t
        .http()
        .patch(`${API}/events/${before[2].id}?recurrence_scope=all`)
        .set('Authorization', ADMIN_AUTH)
        .send({ title: 'All Moved', start_date: '2031-01-20 11:00:00', end_date: '2031-01-20 12:30:00' });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(before[2].id);
      expect(res.body.start_date).toBe('2031-01-20 11:00:00');
      const after = await members(mainId);
      expect(after.map((event) => event.id)).toEqual(before.map((event) => event.id));
      expect(after.map((event) => [event.title, event.start_date, event.end_date.slice(11)])).toEqual([
        ['All Moved', '2031-01-06 11:00:00', '12:30:00'],
        ['All Moved', '2031-01-13 11:00:00', '12:30:00'],
        ['All Moved', '2031-01-20 11:00:00', '12:30:00'],
        ['All Moved', '2031-01-27 11:00:00', '12:30:00'],
        ['Exception', '2031-02-03 10:00:00', '11:00:00'],
        ['All Moved', '2031-02-10 11:00:00', '12:30:00'],
      ]);
      expect((await read(mainId)).recurrence?.original_start).toBe('2031-01-06 11:00:00');
    });

    it('trashes the whole series when an occurrence is deleted with scope all, and restoring the main event brings it back', async () => {
      const mainId = await weekly('Trash All');
      const before = await members(mainId);
      const alone = before[5];
      expect((await remove(alone.id)).status).toBe(200);
      const edited = before[3];
      expect((await update(edited.id, { title: 'Edited Alone' })).status).toBe(200);
      const res = await t.http().delete(`${API}/events/by-slug/${before[2].slug}?recurrence_scope=all`).set('Authorization', ADMIN_AUTH);
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('trash');
      for (const event of before) expect(await status(event.id)).toBe('trash');
      const restored = await update(mainId, { status: 'publish' });
      expect(restored.status).toBe(200);
      const after = await members(mainId);
      expect(after.map((event) => event.id)).toEqual(before.slice(0, 5).map((event) => event.id));
      expect(after.map((event) => event.slug)).toEqual(before.slice(0, 5).map((event) => event.slug));
      expect(after[3].title).toBe('Edited Alone');
      // trashed on its own before: stays in the trash
      expect(await status(alone.id)).toBe('trash');
    });
  });

  it('keeps the term counts through scoped deletes, splits and restores', async () => {
    const created = await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', ADMIN_AUTH)
      .send({
        title: 'Counted Series',
        timezone: 'UTC',
        start_date: '2031-04-07 10:00:00',
        end_date: '2031-04-07 11:00:00',
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6'],
        categories: ['Scope Counted'],
      });
    const mainId = created.body.id as number;
    const count = async () =>
      (await t.http().get(`${API}/categories?hide_empty=0&search=Scope+Counted`)).body.categories[0].count as number;
    expect(await count()).toBe(6);
    const before = await members(mainId);
    expect((await remove(before[1].id, '?recurrence_scope=all')).status).toBe(200);
    expect(await count()).toBe(0);
    expect((await update(mainId, { status: 'publish' })).status).toBe(200);
    expect(await count()).toBe(6);
    expect((await remove(before[4].id, '?recurrence_scope=following')).status).toBe(200);
    expect(await count()).toBe(4);
    expect((await update(before[2].id, { title: 'Counted Series II' }, '?recurrence_scope=following')).status).toBe(200);
    expect(await count()).toBe(4);
  });

  it('needs the permissions of the main event for all and following, those of the occurrence for this', async () => {
    const author = await t.user('author');
    const mainId = await weekly('Shared Series');
    const [, , third] = await members(mainId);
    // the occurrence handed to the author on its own
    expect((await update(third.id, { author: author.id })).status).toBe(200);
    const asAuthor = (query: string) =>
      t.http().post(`${API}/events/${third.id}${query}`).set('Authorization', basic(author)).send({ title: 'Mine' });
    expect((await asAuthor('?recurrence_scope=all')).status).toBe(403);
    expect((await asAuthor('?recurrence_scope=following')).status).toBe(403);
    expect((await t.http().delete(`${API}/events/${third.id}?recurrence_scope=all`).set('Authorization', basic(author))).status).toBe(403);
    expect((await members(mainId)).map((event) => event.title)).not.toContain('Mine');
    expect((await asAuthor('')).status).toBe(200);
  });

  describe('scope following', () => {
    it('splits the series: the old rule ends before the occurrence, later occurrences keep their ids in a new series', async () => {
      const mainId = await weekly('Split Walk', 'RRULE:FREQ=WEEKLY;BYDAY=MO');
      const before = (await members(mainId)).slice(0, 8);
      const exception = before[5];
      expect((await update(exception.id, { title: 'Split Walk (guest)' })).status).toBe(200);
      const at = before[3];
      const res = await t
        .http()
        .put(`${API}/events/${at.id}`)
        .set('Authorization', ADMIN_AUTH)
        .send({ title: 'Split Walk, new route', recurrence_scope: 'following' });
      expect(res.status).toBe(200);
      expect(res.body.recurrence).toEqual({
        series_id: at.id,
        rules: ['RRULE:FREQ=WEEKLY;BYDAY=MO'],
        is_main: true,
        original_start: '2031-01-27 10:00:00',
      });
      const old = await t.http().get(`${API}/series/${mainId}`);
      expect(old.body.rules).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20310127T095959Z']);
      expect(old.body.occurrences_total).toBe(3);
      expect((await members(mainId)).map((event) => event.id)).toEqual(before.slice(0, 3).map((event) => event.id));
      const fresh = await t.http().get(`${API}/series/${at.id}`);
      expect(fresh.status).toBe(200);
      expect(fresh.body).toMatchObject({ id: at.id, rules: ['RRULE:FREQ=WEEKLY;BYDAY=MO'], exceptions_total: 1 });
      const moved = (await members(at.id)).slice(0, 5);
      expect(moved.map((event) => event.id)).toEqual(before.slice(3).map((event) => event.id));
      expect(moved.map((event) => event.title)).toEqual([
        'Split Walk, new route',
        'Split Walk, new route',
        'Split Walk (guest)',
        'Split Walk, new route',
        'Split Walk, new route',
      ]);
      expect(await parentOf(before[6].id)).toBe(at.id);
      const children = await t
        .http()
        .get(`${API}/events?post_parent=${at.id}&start_date=2031-01-01&end_date=2031-02-28&per_page=50`)
        .set('Authorization', ADMIN_AUTH);
      expect(children.body.events.map((event: Occurrence) => event.id)).toEqual(before.slice(4, 8).map((event) => event.id));
      expect((await read(before[1].id)).title).toBe('Split Walk');
    });

    it('recomputes COUNT on both halves and moves the later starts with an edited start', async () => {
      const mainId = await weekly('Count Split', 'RRULE:FREQ=WEEKLY;COUNT=6');
      const before = await members(mainId);
      const res = await update(
        before[2].id,
        { start_date: '2031-01-20 12:00:00', end_date: '2031-01-20 13:00:00' },
        '?recurrence_scope=following',
      );
      expect(res.status).toBe(200);
      expect((await t.http().get(`${API}/series/${mainId}`)).body.rules).toEqual(['RRULE:FREQ=WEEKLY;COUNT=2']);
      expect((await t.http().get(`${API}/series/${before[2].id}`)).body.rules).toEqual(['RRULE:FREQ=WEEKLY;COUNT=4']);
      const moved = await members(before[2].id);
      expect(moved.map((event) => [event.id, event.start_date])).toEqual(
        before.slice(2).map((event) => [event.id, `${event.start_date.slice(0, 10)} 12:00:00`]),
      );
      expect((await members(mainId)).map((event) => event.start_date)).toEqual(['2031-01-06 10:00:00', '2031-01-13 10:00:00']);
    });

    it('logs every event of a split in the change feed', async () => {
      const mainId = await weekly('Logged Split');
      const before = await members(mainId);
      const since = (await t.http().get(`${API}/changes?since=now`).set('Authorization', ADMIN_AUTH)).body.next_cursor as string;
      expect((await update(before[2].id, { title: 'Logged Split II' }, '?recurrence_scope=following')).status).toBe(200);
      const feed = await t.http().get(`${API}/changes?since=${since}&per_page=100`).set('Authorization', ADMIN_AUTH);
      const changed = new Set((feed.body.changes as Array<{ id: number; type: string }>).map((change) => change.id));
      for (const event of before.slice(2)) expect(changed.has(event.id)).toBe(true);
    });

    it('ends the new half at once with an empty recurrence: the occurrence single, later ones trashed', async () => {
      const mainId = await weekly('Empty Following');
      const before = await members(mainId);
      const res = await update(before[3].id, { recurrence: [], recurrence_scope: 'following' });
      expect(res.status).toBe(200);
      expect(res.body.recurrence).toBeNull();
      expect((await members(mainId)).map((event) => event.id)).toEqual(before.slice(0, 3).map((event) => event.id));
      for (const event of before.slice(4)) expect(await status(event.id)).toBe('trash');
      expect((await t.http().get(`${API}/series/${before[3].id}`)).status).toBe(404);
    });

    it('checks If-Match on the addressed occurrence', async () => {
      const mainId = await weekly('Conditional Split');
      const [, second] = await members(mainId);
      const res = await t
        .http()
        .post(`${API}/events/${second.id}?recurrence_scope=following`)
        .set('Authorization', ADMIN_AUTH)
        .set('If-Match', '"stale"')
        .send({ title: 'Never' });
      expect(res.status).toBe(412);
      expect((await t.http().get(`${API}/series/${mainId}`)).body.rules).toEqual(['RRULE:FREQ=WEEKLY;COUNT=6']);
    });

    it('splits at an occurrence moved on its own without moving the later ones, passing on only the edit', async () => {
      const mainId = await weekly('Moved Split', 'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6');
      const before = await members(mainId);
      const own = { title: 'Moved Split (late)', start_date: '2031-01-21 10:00:00', end_date: '2031-01-21 11:00:00' };
      expect((await update(before[2].id, own)).status).toBe(200);
      const res = await update(before[2].id, { cost: '7' }, '?recurrence_scope=following');
      expect(res.status).toBe(200);
      expect(res.body.recurrence).toMatchObject({ series_id: before[2].id, is_main: true, original_start: '2031-01-20 10:00:00' });
      const moved = (await members(before[2].id)) as Array<Occurrence & { cost: string }>;
      expect(moved.map((event) => [event.id, event.title, event.cost, event.start_date])).toEqual([
        [before[2].id, 'Moved Split (late)', '$7', '2031-01-21 10:00:00'],
        ...before.slice(3).map((event) => [event.id, 'Moved Split', '$7', event.start_date]),
      ]);
    });

    it('deletes this and the later occurrences with scope following, the rule ending before it', async () => {
      const mainId = await weekly('Delete Following');
      const before = await members(mainId);
      const res = await remove(before[4].id, '?recurrence_scope=following');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('trash');
      expect((await members(mainId)).map((event) => event.id)).toEqual(before.slice(0, 4).map((event) => event.id));
      for (const event of before.slice(4)) expect(await status(event.id)).toBe('trash');
      expect((await t.http().get(`${API}/series/${mainId}`)).body.rules).toEqual(['RRULE:FREQ=WEEKLY;COUNT=4']);
      // a later edit of the series does not bring them back
      expect((await update(mainId, { title: 'Delete Following II' })).status).toBe(200);
      expect((await members(mainId)).map((event) => event.id)).toEqual(before.slice(0, 4).map((event) => event.id));
    });
  });
});
