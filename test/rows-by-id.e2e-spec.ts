import { getDataSourceToken } from '@nestjs/typeorm';
import { type DataSource, type EntityMetadata, In, type ObjectLiteral } from 'typeorm';
import { ChangeEntity } from '../src/changes/change.entity.js';
import { insertRow, rowById, rowsById, updateById } from '../src/common/sql/rows-by-id.js';
import { EventEntity } from '../src/events/event.entity.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

/**
 * The reads by id made from a statement kept per entity (common/sql/rows-by-id.ts) give the same
 * entities as TypeORM's `find` by ids, for every entity with one `id` primary column, on the
 * database the suite runs on: every column, types and transformers (booleans, wall times, JSON
 * text, nulls) alike.
 */
describe('rows read by id', () => {
  let t: TestApp;
  let dataSource: DataSource;

  beforeAll(async () => {
    t = await startTestApp();
    dataSource = t.app.get<DataSource>(getDataSourceToken());
    const post = async (path: string, body: Record<string, unknown>) => {
      const res = await t.http().post(`${API}/${path}`).set('Authorization', basic(ADMIN)).send(body);
      expect(res.status === 201 ? 201 : res.body).toBe(201);
      return res.body.id as number;
    };
    const venue = await post('venues', { venue: 'Hall', city: 'Lyon', show_map: 'yes' });
    const organizer = await post('organizers', { organizer: 'Host', email: 'host@example.org' });
    await post('events', {
      title: 'Linked',
      description: '<p>Text</p>',
      start_date: '2030-05-01 20:00:00',
      end_date: '2030-05-01 22:00:00',
      timezone: 'Europe/Paris',
      cost: '10 - 20',
      featured: true,
      venue,
      organizer: [organizer],
      categories: ['Kind'],
      tags: ['Mark'],
    });
    await post('events', { title: 'Plain', start_date: '2030-06-01', end_date: '2030-06-01', all_day: true, status: 'draft' });
    await post('events', {
      title: 'Weekly',
      start_date: '2030-07-01 10:00:00',
      end_date: '2030-07-01 11:00:00',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const sorted = <T extends ObjectLiteral>(rows: T[]) => [...rows].sort((a, b) => Number(a.id) - Number(b.id));
  const byIdEntities = () =>
    dataSource.entityMetadatas.filter(
      (metadata: EntityMetadata) =>
        !metadata.isJunction && metadata.primaryColumns.length === 1 && metadata.primaryColumns[0].propertyName === 'id',
    );

  it('gives what find by ids gives, for every entity with an id', async () => {
    const compared: string[] = [];
    // both reads in one transaction, on one snapshot: background work (the change sequencer) changes rows meanwhile
    await dataSource.transaction(async (manager) => {
      for (const metadata of byIdEntities()) {
        const ids = (await manager.query<Array<{ id: number }>>(`SELECT id FROM ${metadata.tableName} ORDER BY id LIMIT 50`)).map((row) =>
          Number(row.id),
        );
        if (ids.length === 0) continue;
        const expected = await manager.find(metadata.target, { where: { id: In(ids) } });
        const got = await rowsById(manager, metadata.target, [...ids, 99_999_999]);
        expect(sorted(got)).toEqual(sorted(expected));
        for (const row of got) expect(row).toBeInstanceOf(metadata.target as new () => unknown);
        compared.push(metadata.name);
      }
    });
    // the entities the API's records live in are among those compared
    expect(compared).toEqual(expect.arrayContaining(['EventEntity', 'VenueEntity', 'OrganizerEntity', 'CategoryEntity', 'TagEntity']));
  });

  it('reads one row, a locking read inside a transaction, and none for no ids or an unknown id', async () => {
    const [{ id }] = await dataSource.manager.query<Array<{ id: number }>>("SELECT id FROM events WHERE title = 'Linked'");
    const expected = await dataSource.manager.findOneByOrFail(EventEntity, { id: Number(id) });
    expect(await rowById(dataSource.manager, EventEntity, Number(id))).toEqual(expected);
    const locked = await dataSource.transaction((manager) => rowById(manager, EventEntity, Number(id), true));
    expect(locked).toEqual(expected);
    expect(locked?.featured).toBe(true);
    expect(locked?.cost).toEqual(expect.any(Array));
    expect(await rowById(dataSource.manager, EventEntity, 99_999_999)).toBeNull();
    expect(await rowsById(dataSource.manager, EventEntity, [])).toEqual([]);
  });

  it('updates columns of every kind by id as the update of TypeORM does', async () => {
    const ids = (
      await dataSource.manager.query<Array<{ id: number }>>("SELECT id FROM events WHERE title IN ('Linked', 'Plain') ORDER BY id")
    ).map((row) => Number(row.id));
    const changes: Partial<EventEntity> = {
      title: 'Ünïcode "quoted" \\ text',
      featured: false,
      allDay: true,
      startLocal: '2031-01-02 03:04:05',
      cost: ['5', 'free'],
      venueId: null,
      customFields: { _ecp_custom_2: 'value' },
    };
    await updateById(dataSource.manager, EventEntity, ids[0], changes);
    await dataSource.manager.update(EventEntity, { id: ids[1] }, changes);
    const [mine, theirs] = await Promise.all(ids.map((id) => dataSource.manager.findOneByOrFail(EventEntity, { id })));
    expect(mine).toMatchObject(changes);
    for (const property of Object.keys(changes))
      expect([property, mine[property as keyof EventEntity]]).toEqual([property, theirs[property as keyof EventEntity]]);
    // nothing changed: no statement, no error
    await updateById(dataSource.manager, EventEntity, ids[0], {});
    await expect(updateById(dataSource.manager, EventEntity, ids[0], { nothing: 1 } as never)).rejects.toThrow(TypeError);
  });

  it('inserts a row as the insert of TypeORM does, and answers its generated id', async () => {
    const row: Partial<ChangeEntity> = {
      kind: 'event',
      recordId: 424242,
      action: 'updated',
      authorId: null,
      statusBefore: 'draft',
      statusAfter: 'publish',
      protectedBefore: false,
      protectedAfter: true,
      modifiedUtc: '2031-01-02 03:04:05',
      recordedUtc: '2031-01-02 03:04:06',
      seq: null,
      snapshot: null,
      languages: 'de,fr',
    };
    const { identifiers } = await dataSource.manager.insert(ChangeEntity, { ...row });
    const id = await dataSource.transaction((manager) => insertRow(manager, ChangeEntity, row));
    expect(id).toBeGreaterThan(Number(identifiers[0].id));
    const [theirs, mine] = await Promise.all(
      [Number(identifiers[0].id), id].map((changeId) =>
        dataSource.manager.findOneByOrFail(ChangeEntity, { id: String(changeId) as never }),
      ),
    );
    // `seq` aside: the change sequencer numbers new rows in the background
    const written = ({ id: _id, seq: _seq, ...rest }: ChangeEntity) => rest;
    const { seq: _seq, ...sent } = row;
    expect(written(mine)).toEqual(sent);
    expect(written(mine)).toEqual(written(theirs));
    await dataSource.manager.delete(ChangeEntity, [identifiers[0].id, id]);
  });

  it('refuses what is not an id, before any statement', async () => {
    await expect(rowsById(dataSource.manager, EventEntity, [Number.NaN])).rejects.toThrow(TypeError);
    await expect(rowsById(dataSource.manager, EventEntity, [1.5])).rejects.toThrow(TypeError);
  });
});
