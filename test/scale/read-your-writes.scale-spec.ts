import { readFileSync } from 'node:fs';
import {
  type Answer,
  basicAuth,
  call,
  onReplicaServer,
  replicaCaughtUp,
  runScript,
  scaleEnv,
  setReplicaDelay,
  sleep,
} from './scale-env.js';

/**
 * The scaled-out topology of `scripts/scale-env.sh` (two app processes behind HAProxy, a MariaDB
 * primary and a GTID replica, docs/SCALING.md), driven over HTTP from outside like a client would.
 * Lag is injected with `MASTER_DELAY`, which holds each event back by whole seconds.
 */
const env = scaleEnv();
const admin = basicAuth(env);
const [appA, appB] = env.apps;
/** How long after a write a read without a token may still miss it: the lag bound plus one check interval and the time to notice. */
const STALE_BOUND_MS = env.maxLagMs + 1500;

let counter = 0;
async function createEvent(base: string, title = `Scaled event ${++counter}`): Promise<{ id: number; token: string; answer: Answer }> {
  const answer = await call(base, '/events', {
    method: 'POST',
    headers: admin,
    body: { title, start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00', status: 'publish' },
  });
  expect(answer.status).toBe(201);
  const token = answer.headers.get('x-consistency-token') ?? '';
  expect(token).toMatch(/^\d+-\d+-\d+(,\d+-\d+-\d+)*$/);
  return { id: answer.body.id as number, token, answer };
}

const cookieOf = (answer: Answer) => (answer.headers.get('set-cookie') ?? '').split(';')[0];

afterAll(async () => {
  await setReplicaDelay(env, 0).catch(() => undefined);
});

describe('the topology', () => {
  it('answers through the load balancer and from each app process, on the primary and the replica', async () => {
    for (const base of [env.proxy, appA, appB]) {
      const ready = await fetch(`${base}/health/ready`);
      expect(ready.status).toBe(200);
    }
    const status = (await onReplicaServer(env, 'SHOW SLAVE STATUS')) as Array<Record<string, unknown>>;
    expect(status[0]).toMatchObject({ Slave_IO_Running: 'Yes', Slave_SQL_Running: 'Yes', Using_Gtid: 'Slave_Pos' });
    expect(readFileSync(`${env.replica.pidFile}`, 'utf8')).toMatch(/^\d+/);
  });
});

describe('read-your-writes with a lagging replica', () => {
  beforeAll(async () => {
    await setReplicaDelay(env, 2); // every write reaches the replica one to two seconds late
  });

  it('shows a write made through one app on the next read through the other, with the token in the header', async () => {
    for (let round = 0; round < 4; round++) {
      const [writer, reader] = round % 2 === 0 ? [appA, appB] : [appB, appA];
      const { id, token } = await createEvent(writer);
      const read = await call(reader, `/events/${id}`, { headers: { ...admin, 'X-Consistency-Token': token } });
      expect({ round, status: read.status, id: read.body.id }).toEqual({ round, status: 200, id });
      const updated = await call(reader, `/events/${id}`, { method: 'POST', headers: admin, body: { title: `Renamed ${round}` } });
      expect(updated.status).toBe(200);
      const again = await call(writer, `/events/${id}`, {
        headers: { ...admin, 'X-Consistency-Token': updated.headers.get('x-consistency-token') ?? '' },
      });
      expect({ round, title: again.body.title }).toEqual({ round, title: `Renamed ${round}` });
    }
  });

  it('does the same for a browser, which sends the token back as a cookie, through the load balancer', async () => {
    const { id, answer } = await createEvent(env.proxy);
    const cookie = cookieOf(answer);
    expect(cookie).toMatch(/^calendar_consistency=/);
    expect(answer.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax/);
    for (let attempt = 0; attempt < 4; attempt++) {
      const read = await call(env.proxy, `/events/${id}`, { headers: { ...admin, Cookie: cookie } });
      expect({ attempt, status: read.status }).toEqual({ attempt, status: 200 });
    }
  });

  it('without a token, reads come from the replica and may miss the write, but only within the bound', async () => {
    // start from a replica that has applied everything, so the apps' checks see it current (not lagging
    // from the writes of the tests before), then write
    await replicaCaughtUp(env);
    await sleep(1000);
    const { id, answer } = await createEvent(appA);
    const acknowledged = answer.at;
    const reads: Array<{ status: number; afterMs: number }> = [];
    for (;;) {
      const read = await call(appB, `/events/${id}`, { headers: admin });
      reads.push({ status: read.status, afterMs: read.at - acknowledged });
      if (read.status === 200) break;
      expect(read.status).toBe(404);
      expect(read.at - acknowledged).toBeLessThan(STALE_BOUND_MS);
      await sleep(50);
    }
    // the first read answered from the replica, which had not applied the write yet
    expect(reads[0].status).toBe(404);
  });

  it('the change feed follows the primary: a cursor handed out by one app is valid on the other at once', async () => {
    const { id } = await createEvent(appA, 'Followed');
    const first = await call(appA, '/changes?since=now', { headers: admin });
    expect(first.status).toBe(200);
    const created = await createEvent(appB, 'Followed next');
    const next = await call(appB, `/changes?since=${String(first.body.next_cursor)}`, { headers: admin });
    expect(next.status).toBe(200);
    const ids = (next.body.changes as Array<{ id: number }>).map((change) => change.id);
    expect(ids).toContain(created.id);
    expect(ids).not.toContain(id);
  });

  it('an invalid token is no error: the primary answers', async () => {
    const { id } = await createEvent(appA);
    const read = await call(appB, `/events/${id}`, { headers: { ...admin, 'X-Consistency-Token': 'not-a-position' } });
    expect(read.status).toBe(200);
  });
});

describe('a replica lagging beyond REPLICA_MAX_LAG_MS', () => {
  beforeAll(async () => {
    await replicaCaughtUp(env);
    // held back long enough that the loop below ends well before the replica applies the write
    await setReplicaDelay(env, Math.ceil(env.maxLagMs / 1000) + 5);
  });

  afterAll(async () => {
    await setReplicaDelay(env, 0);
    await replicaCaughtUp(env, 60);
  });

  it('is skipped: reads without a token are stale only within the bound, then the primary answers them', async () => {
    const { id, answer } = await createEvent(appA);
    const acknowledged = answer.at;
    let fresh = 0;
    while (Date.now() - acknowledged < STALE_BOUND_MS + 1000) {
      const read = await call(appB, `/events/${id}`, { headers: admin });
      if (read.status === 200) fresh++;
      else expect({ status: read.status, stale: read.at - acknowledged < STALE_BOUND_MS }).toEqual({ status: 404, stale: true });
      await sleep(100);
    }
    expect(fresh).toBeGreaterThan(0);
    // the replica itself still lacks the event: the fresh answers came from the primary
    const onReplica = (await onReplicaServer(env, `SELECT COUNT(*) AS n FROM calendar.events WHERE id = ${id}`)) as Array<{ n: number }>;
    expect(Number(onReplica[0].n)).toBe(0);
  }, 30_000);
});

describe('the response cache across app processes', () => {
  beforeAll(async () => {
    await setReplicaDelay(env, 2);
  });

  it('never answers a reader with a page older than the last write it was told about', async () => {
    const { id } = await createEvent(appA, 'Cached 0');
    await replicaCaughtUp(env, 10);
    for (const base of [appA, appB, appA, appB]) expect((await call(base, `/events/${id}`)).status).toBe(200); // cached on both
    for (let round = 1; round <= 5; round++) {
      const [writer, reader] = round % 2 === 0 ? [appA, appB] : [appB, appA];
      const update = await call(writer, `/events/${id}`, { method: 'POST', headers: admin, body: { title: `Cached ${round}` } });
      expect(update.status).toBe(200);
      // anonymous, as a browser with the cookie and as a client without any token: both cached paths
      const presented: Array<Record<string, string>> = [{ Cookie: cookieOf(update) }, {}];
      for (const headers of presented) {
        for (const base of [reader, writer, env.proxy]) {
          const read = await call(base, `/events/${id}`, { headers });
          expect({ round, base, title: read.body.title }).toEqual({ round, base, title: `Cached ${round}` });
        }
      }
    }
  });

  it('one app process answers from the page the other built (Redis), at the current data version only', async () => {
    expect(env.redis).not.toBe(''); // the topology runs with Redis here
    const { id } = await createEvent(appA, 'Shared page 0');
    for (let round = 1; round <= 3; round++) {
      const built = await call(appA, `/events/${id}`);
      expect({ round, cache: built.headers.get('x-cache'), title: built.body.title }).toEqual({
        round,
        cache: 'MISS',
        title: `Shared page ${round - 1}`,
      });
      await sleep(50);
      const taken = await call(appB, `/events/${id}`);
      expect({ round, cache: taken.headers.get('x-cache'), etag: taken.headers.get('etag') }).toEqual({
        round,
        cache: 'HIT',
        etag: built.headers.get('etag'),
      });
      expect((await call(appB, `/events/${id}`, { method: 'POST', headers: admin, body: { title: `Shared page ${round}` } })).status).toBe(
        200,
      );
    }
  });

  it('lists, cached or not, include a write the reader presents', async () => {
    const { token } = await createEvent(appB, 'Listed after a write');
    for (const base of [appA, appB]) {
      const list = await call(base, '/events?per_page=50&search=Listed', { headers: { 'X-Consistency-Token': token } });
      expect((list.body.events as Array<{ title: string }>).map((event) => event.title)).toContain('Listed after a write');
      const authenticated = await call(base, '/events?per_page=50&search=Listed', { headers: { ...admin, 'X-Consistency-Token': token } });
      expect((authenticated.body.events as Array<{ title: string }>).map((event) => event.title)).toContain('Listed after a write');
    }
  });
});

describe('a replica that goes away', () => {
  beforeAll(async () => {
    await setReplicaDelay(env, 0);
    await replicaCaughtUp(env);
  });

  it('killed mid-run: every read is still answered, then the replica comes back', async () => {
    const { id, token } = await createEvent(appA, 'Survives the replica');
    await replicaCaughtUp(env); // the readers without a token may start on the replica
    const pid = Number(readFileSync(env.replica.pidFile, 'utf8').trim());
    const failures: string[] = [];
    let answered = 0;
    let running = true;
    const readers = [appA, appB, env.proxy].map(async (base, index) => {
      while (running) {
        const headers = index === 0 ? { ...admin } : index === 1 ? { ...admin, 'X-Consistency-Token': token } : {};
        const read = await call(base, `/events/${id}`, { headers });
        if (read.status === 200) answered++;
        else failures.push(`${base}: ${read.status} ${JSON.stringify(read.body)}`);
      }
    });
    await sleep(300);
    process.kill(pid, 'SIGKILL');
    await sleep(2500);
    running = false;
    await Promise.all(readers);
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(20);

    // a write and its read-back while the replica is down
    const during = await createEvent(appB, 'Written without a replica');
    expect((await call(appA, `/events/${during.id}`, { headers: { ...admin, 'X-Consistency-Token': during.token } })).status).toBe(200);

    runScript(env, 'replica-start');
    await replicaCaughtUp(env);
    const after = await createEvent(appA, 'Written after the replica came back');
    expect((await call(appB, `/events/${after.id}`, { headers: { ...admin, 'X-Consistency-Token': after.token } })).status).toBe(200);
  }, 60_000);
});
