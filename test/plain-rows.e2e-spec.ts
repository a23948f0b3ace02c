import { DataSource } from 'typeorm';
import { runTogether } from '../src/common/sql/together.js';
import { copyRow, lockedRowQuery, updateStatement } from '../src/common/sql/plain-rows.js';
import { EventEntity } from '../src/events/event.entity.js';
import { ADMIN, API, basic, startTestApp, type TestApp } from './support/test-app.js';

describe('rows of single-event writes (copyRow, updateStatement)', () => {
  let t: TestApp;
  let dataSource: DataSource;
  let id: number;

  beforeAll(async () => {
    t = await startTestApp();
    dataSource = t.app.get(DataSource);
    const res = await t
      .http()
      .post(`${API}/events`)
      .set('Authorization', basic(ADMIN))
      .send({
        title: 'Copied row',
        start_date: '2027-05-01 10:00:00',
        end_date: '2027-05-01 12:00:00',
        cost: '5-10',
        venue: { venue: 'Row Hall' },
        password: 'open sesame',
        featured: true,
      });
    expect(res.body).toMatchObject({ title: 'Copied row' });
    id = res.body.id as number;
  });
  afterAll(() => t.close());

  /** The event's row as a single-event write reads it (the locked read), in a transaction of its own. */
  function lockedRow(): Promise<EventEntity> {
    return dataSource.transaction(async (manager) => {
      const locking = lockedRowQuery(manager, EventEntity, id);
      const [result] = await runTogether(manager, [locking.statement]);
      return locking.read(result) as EventEntity;
    });
  }

  it('copies a row read by the locked read as manager.create copies it, changes included', async () => {
    const row = await lockedRow();
    const manager = dataSource.manager;
    const plain = copyRow(manager, EventEntity, row);
    const created = manager.create(EventEntity, { ...row });
    expect(plain).toBeInstanceOf(EventEntity);
    expect(plain).not.toBe(row);
    expect(Object.keys(plain).sort()).toEqual(Object.keys(created).sort());
    expect(plain).toEqual(created);
    const changes: Partial<EventEntity> = {
      status: 'trash',
      preTrashStatus: row.status,
      slug: 'copied-row__trashed',
      modifiedUtc: '2027-01-01 00:00:00',
    };
    expect(copyRow(manager, EventEntity, row, changes)).toEqual(manager.create(EventEntity, { ...row, ...changes }));
    // the copy is the row's own: changing it leaves the row as read
    plain.title = 'Changed';
    expect(row.title).toBe('Copied row');
  });

  it('updates only the columns whose values changed, an equal JSON value counting as unchanged', async () => {
    const row = await lockedRow();
    const manager = dataSource.manager;
    expect(updateStatement(manager, EventEntity, row, copyRow(manager, EventEntity, row))).toBeNull();
    // a new list holding the same JSON is no change
    expect(row.cost).toEqual(['5-10']);
    expect(updateStatement(manager, EventEntity, row, copyRow(manager, EventEntity, row, { cost: [...(row.cost ?? [])] }))).toBeNull();
    const statement = updateStatement(manager, EventEntity, row, copyRow(manager, EventEntity, row, { title: 'Renamed', cost: ['7'] }));
    expect(statement?.sql).toMatch(/^UPDATE \S+ SET \S+ = \?, \S+ = \? WHERE \S+ = \?$/);
    expect(statement?.sql).toContain('title');
    expect(statement?.sql).toContain('cost');
    expect(statement?.parameters).toHaveLength(3);
    expect(statement?.parameters).toEqual(expect.arrayContaining(['Renamed', '["7"]']));
    expect(statement?.parameters?.[2]).toBe(id);
  });
});
