import type { Response } from 'supertest';
import { ADMIN, API, basic, startTestApp, type Credentials, type TestApp } from './support/test-app.js';

/**
 * Authorization matrix (spec §4.5 capability table, §4.6 order of checks, §5.1-5.2 statuses, §5.4
 * single reads, §5.7 trash, §11.9 terms, §14.2 `Allow`). Every cell is generated from the constants
 * below and its outcome is derived from the spec by the pure function `expected()`; nothing in the
 * expectations is copied from the service.
 *
 * Independence of cells:
 * - reads, `Allow` and updates share fixture records created once per kind; updates only change a
 *   text field (`excerpt` / term `description`) to a value unique to the cell, never the status, and a
 *   cell that finds the status changed anyway puts the record back before failing;
 * - deletes and status changes work on a record created for the cell alone.
 */

// ---------------------------------------------------------------------------------------------
// Dimensions of the matrix
// ---------------------------------------------------------------------------------------------

const ROLES = ['anonymous', 'subscriber', 'contributor', 'author', 'editor', 'administrator'] as const;
type Role = (typeof ROLES)[number];
type UserRoleName = Exclude<Role, 'anonymous'>;

/** Roles that can create items, hence own some. */
const CREATORS: readonly Role[] = ['contributor', 'author', 'editor', 'administrator'];

const ITEM_KINDS = ['events', 'venues', 'organizers'] as const;
type ItemKind = (typeof ITEM_KINDS)[number];
const TERM_KINDS = ['categories', 'tags'] as const;
type TermKind = (typeof TERM_KINDS)[number];

const SINGULAR: Record<ItemKind, string> = { events: 'event', venues: 'venue', organizers: 'organizer' };
const NAME_FIELD: Record<ItemKind, string> = { events: 'title', venues: 'venue', organizers: 'organizer' };

type StoredStatus = 'publish' | 'future' | 'draft' | 'pending' | 'private';
type ItemStatus = StoredStatus | 'trash';

/** A state of the target record. For `trash`, `before` is the status it had before trashing (§4.5). */
interface State {
  label: string;
  status: ItemStatus;
  before: StoredStatus;
}

const STATES: readonly State[] = [
  { label: 'publish', status: 'publish', before: 'publish' },
  { label: 'future', status: 'future', before: 'future' },
  { label: 'draft', status: 'draft', before: 'draft' },
  { label: 'pending', status: 'pending', before: 'pending' },
  { label: 'private', status: 'private', before: 'private' },
  { label: 'trash (was draft)', status: 'trash', before: 'draft' },
  { label: 'trash (was publish)', status: 'trash', before: 'publish' },
];

/** Status requested in a create or update body (`none` = no `status` field). */
const REQUESTED = ['none', 'publish', 'future', 'draft', 'pending', 'private'] as const;
type Requested = (typeof REQUESTED)[number];

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Op = 'create' | 'read' | 'update' | 'delete';
type By = 'collection' | 'id' | 'slug';

interface Route {
  kind: ItemKind | TermKind;
  op: Op;
  method: Method;
  by: By;
}

const FULL_ITEM_ALLOW = 'GET, DELETE, POST, PUT, PATCH';
const FULL_TERM_ALLOW = 'GET, POST, PUT, PATCH, DELETE';
const FUTURE_DATE = '2035-06-01 12:00:00';

/** (requester, own?) pairs: anonymous and subscribers own nothing. */
const REQUESTERS: ReadonlyArray<{ role: Role; own: boolean }> = ROLES.flatMap((role) =>
  CREATORS.includes(role)
    ? [
        { role, own: true },
        { role, own: false },
      ]
    : [{ role, own: false }],
);

// ---------------------------------------------------------------------------------------------
// The spec, as pure functions
// ---------------------------------------------------------------------------------------------

/** §4.5: update and delete (trash) of one item; for a trashed item the status before trashing counts. */
function mayWrite(role: Role, own: boolean, state: State): boolean {
  switch (role) {
    case 'anonymous':
    case 'subscriber':
      return false;
    case 'contributor':
      return own && ['draft', 'pending', 'private'].includes(state.before);
    case 'author':
      return own;
    case 'editor':
    case 'administrator':
      return true;
  }
}

/** §5.4 `canRead`. */
function canRead(kind: ItemKind, role: Role, own: boolean, state: State): boolean {
  switch (state.status) {
    case 'publish':
      return true;
    case 'draft':
    case 'pending':
    case 'future':
      // "the user may update the item (a contributor can read own drafts and pending items, not own scheduled ones)"
      return mayWrite(role, own, state) && !(role === 'contributor' && state.status === 'future');
    case 'private':
      return role === 'editor' || role === 'administrator' || (own && CREATORS.includes(role));
    case 'trash':
      return kind !== 'events' && mayWrite(role, own, state);
  }
}

/** §4.5 terms table. */
function mayManageTerms(kind: TermKind, role: Role): boolean {
  if (role === 'editor' || role === 'administrator') return true;
  return kind === 'categories' && role === 'author';
}

/** §5.2: the stored status of a write. `dateInFuture` = the publication date the write ends up with. */
function storedStatus(role: Role, requested: Requested, dateInFuture: boolean, current: StoredStatus | null): StoredStatus {
  const publisher = role !== 'contributor';
  if (requested === 'none') return current ?? (publisher ? 'publish' : 'draft');
  if (!publisher) return requested === 'draft' ? 'draft' : 'pending';
  if (requested === 'publish' && dateInFuture) return 'future';
  if (requested === 'future' && !dateInFuture) return 'publish';
  return requested;
}

interface Outcome {
  status: number;
  /** Error code of the answer, when it is an error. */
  code?: string;
  /** Status the record has after the request (items only). */
  recordStatus?: ItemStatus;
}

const forbidden = (role: Role): Outcome => ({ status: role === 'anonymous' ? 401 : 403, code: 'rest_forbidden' });

/**
 * Expected outcome of one matrix cell (§4.5, §4.6, §5.2, §5.4, §5.7, §10, §11, §11.9). `target` is
 * the state of the addressed record for item reads/updates/deletes, the requested status for item
 * creates, and null for terms. Bodies are always valid and targets always exist, so the checks
 * before permission (§4.6 steps 1-6) never answer.
 */
function expected(route: Route, role: Role, own: boolean, target: State | Requested | null): Outcome {
  if (route.kind === 'categories' || route.kind === 'tags') {
    if (route.op === 'read') return { status: 200 };
    if (!mayManageTerms(route.kind, role)) return forbidden(role);
    return { status: route.op === 'create' ? 201 : 200 };
  }
  const kind = route.kind;
  if (route.op === 'create') {
    const requested = target as Requested;
    if (role === 'anonymous' || role === 'subscriber') return forbidden(role);
    return { status: 201, recordStatus: storedStatus(role, requested, requested === 'future', null) };
  }
  const state = target as State;
  if (route.op === 'read') {
    if (kind === 'events' && state.status === 'trash') return { status: 403, code: 'event-no-longer-available' };
    if (!canRead(kind, role, own, state)) return { status: 403, code: `${SINGULAR[kind]}-not-accessible` };
    return { status: 200, recordStatus: state.status };
  }
  if (!mayWrite(role, own, state)) return { ...forbidden(role), recordStatus: state.status };
  if (route.op === 'delete') {
    if (state.status === 'trash') return { status: 410, code: `${SINGULAR[kind]}-is-in-trash`, recordStatus: 'trash' };
    return { status: 200, recordStatus: 'trash' };
  }
  // Update without `status` keeps the status, also in the trash (§5.2, §5.7).
  return { status: 200, recordStatus: state.status };
}

/** Expected outcome of an update carrying `status` (§5.2, §5.7 restore) on a record in `state`. */
function expectedStatusChange(kind: ItemKind, role: Role, own: boolean, state: State, requested: Exclude<Requested, 'none'>): Outcome {
  const base = expected({ kind, op: 'update', method: 'put', by: 'id' }, role, own, state);
  if (base.status !== 200) return base;
  // Only a `future` record keeps a publication date in the future; drafts/pending float to "now".
  return { status: 200, recordStatus: storedStatus(role, requested, state.status === 'future', null) };
}

/** §14.2: methods of the addressed route the requester may use. */
function expectedAllow(route: Route, role: Role, own: boolean, state: State | null): string {
  if (route.kind === 'categories' || route.kind === 'tags') {
    if (route.by === 'collection') return mayManageTerms(route.kind, role) ? 'GET, POST' : 'GET';
    return mayManageTerms(route.kind, role) ? FULL_TERM_ALLOW : 'GET';
  }
  if (route.by === 'collection') return role === 'anonymous' || role === 'subscriber' ? 'GET' : 'GET, POST';
  return mayWrite(role, own, state as State) ? FULL_ITEM_ALLOW : 'GET';
}

// ---------------------------------------------------------------------------------------------
// Cells
// ---------------------------------------------------------------------------------------------

const ownLabel = (role: Role, own: boolean) => (CREATORS.includes(role) ? (own ? 'own' : "other's") : "other's");

function routeLabel(route: Route): string {
  const base = route.by === 'collection' ? `/${route.kind}` : route.by === 'id' ? `/${route.kind}/<id>` : `/${route.kind}/by-slug/<slug>`;
  return `${route.method.toUpperCase()} ${base}`;
}

function describeOutcome(outcome: Outcome): string {
  return `${outcome.status}${outcome.code ? ` ${outcome.code}` : ''}${outcome.recordStatus ? ` [${outcome.recordStatus}]` : ''}`;
}

interface ItemCell {
  name: string;
  route: Route;
  role: Role;
  own: boolean;
  state: State;
  outcome: Outcome;
}

const UPDATE_ROUTES = (kind: ItemKind): Route[] =>
  (['id', 'slug'] as const).flatMap((by) =>
    (['post', 'put', 'patch'] as const).map((method) => ({ kind, op: 'update' as const, method, by })),
  );
const DELETE_ROUTES = (kind: ItemKind): Route[] =>
  (['id', 'slug'] as const).map((by) => ({ kind, op: 'delete' as const, method: 'delete' as const, by }));
const READ_ROUTES = (kind: ItemKind): Route[] =>
  (['id', 'slug'] as const).map((by) => ({ kind, op: 'read' as const, method: 'get' as const, by }));

function itemCells(routes: Route[]): ItemCell[] {
  return routes.flatMap((route) =>
    REQUESTERS.flatMap(({ role, own }) =>
      STATES.map((state) => {
        const outcome = expected(route, role, own, state);
        return {
          name: `${routeLabel(route)} · ${role} · ${ownLabel(role, own)} · ${state.label} → ${describeOutcome(outcome)}`,
          route,
          role,
          own,
          state,
          outcome,
        };
      }),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------------------------

interface Item {
  id: number;
  slug: string;
}

type OwnerKey = `${UserRoleName}:${'me' | 'other'}`;

describe('authorization matrix (§4.5, §4.6, §5.2, §5.4, §5.7, §11.9, §14.2)', () => {
  let t: TestApp;
  const users = {} as Record<OwnerKey, Credentials>;
  const ADMIN_AUTH = basic(ADMIN);
  let counter = 0;
  const unique = (prefix: string) => `${prefix} ${++counter} ${Math.random().toString(36).slice(2, 8)}`;
  const marker = () => `mark${++counter}x${Math.random().toString(36).slice(2, 8)}`;

  beforeAll(async () => {
    t = await startTestApp();
    for (const role of ['subscriber', 'contributor', 'author', 'editor', 'administrator'] as const) {
      users[`${role}:me`] = await t.user(role);
      users[`${role}:other`] = await t.user(role);
    }
  });
  afterAll(() => t?.close());

  const authOf = (role: Role): string | null => (role === 'anonymous' ? null : basic(users[`${role}:me`]));

  /** Owner of the target record: the requester for "own", else another user (of the same role where it has one). */
  function ownerOf(role: Role, own: boolean): OwnerKey {
    if (role === 'anonymous' || role === 'subscriber') return 'author:other';
    return `${role}:${own ? 'me' : 'other'}`;
  }

  function send(method: Method, path: string, auth: string | null, body?: Record<string, unknown>): Promise<Response> {
    let req = t.http()[method](`${API}${path}`);
    if (auth) req = req.set('Authorization', auth);
    return body === undefined ? req : req.send(body);
  }

  const itemPath = (kind: ItemKind, by: By, item: Item) =>
    by === 'id' ? `/${kind}/${item.id}` : `/${kind}/by-slug/${encodeURIComponent(item.slug)}`;

  function baseBody(kind: ItemKind): Record<string, unknown> {
    const name = unique(`Matrix ${SINGULAR[kind]}`);
    if (kind === 'events') return { title: name, start_date: '2027-04-02 18:00:00', end_date: '2027-04-02 22:00:00' };
    return { [NAME_FIELD[kind]]: name };
  }

  const statusFields = (status: StoredStatus | Requested): Record<string, unknown> =>
    status === 'none' ? {} : status === 'future' ? { status, date: FUTURE_DATE } : { status };

  function fail(message: string, res: Response): never {
    throw new Error(`${message}: ${res.status} ${JSON.stringify(res.body)}`);
  }

  /**
   * Creates a record in `state` owned by `owner`: as the owner itself when its role may set that
   * status, otherwise (contributor + publish/future/private) as an administrator with `author`; a
   * trashed one is created in its `before` status and then deleted by an editor.
   */
  async function createItem(kind: ItemKind, ownerKey: OwnerKey, state: State): Promise<Item> {
    const owner = users[ownerKey];
    const asOwner = !(ownerKey.startsWith('contributor:') && ['publish', 'future', 'private'].includes(state.before));
    const body = { ...baseBody(kind), ...statusFields(state.before), ...(asOwner ? {} : { author: owner.id }) };
    const created = await send('post', `/${kind}`, asOwner ? basic(owner) : ADMIN_AUTH, body);
    if (created.status !== 201 || created.body.status !== state.before || created.body.author !== String(owner.id)) {
      fail(`fixture ${kind} ${ownerKey} ${state.label}: create`, created);
    }
    if (state.status !== 'trash') return { id: created.body.id, slug: created.body.slug };
    const trashed = await send('delete', `/${kind}/${created.body.id}`, basic(users['editor:me']));
    if (trashed.status !== 200 || trashed.body.status !== 'trash') fail(`fixture ${kind} ${ownerKey} ${state.label}: trash`, trashed);
    return { id: trashed.body.id, slug: trashed.body.slug };
  }

  /** Puts a fixture back into `state` after a cell changed its status (only on a failing cell). */
  async function restore(kind: ItemKind, item: Item, state: State): Promise<void> {
    const current = await send('get', `/${kind}/${item.id}`, ADMIN_AUTH);
    const currentStatus: string | undefined =
      current.status === 200 ? current.body.status : kind === 'events' && current.status === 403 ? 'trash' : undefined;
    if (currentStatus === state.status) return;
    const back = await send('patch', `/${kind}/${item.id}`, ADMIN_AUTH, statusFields(state.before));
    if (back.status !== 200) return;
    if (state.status === 'trash') await send('delete', `/${kind}/${item.id}`, ADMIN_AUTH);
  }

  /**
   * After a refused write: the record must be unchanged (status and no trace of the cell's marker).
   * A trashed event cannot be read back as a single item by anybody (§5.7), so it is not checked.
   */
  async function expectUnchanged(kind: ItemKind, item: Item, state: State, mark?: string): Promise<void> {
    if (kind === 'events' && state.status === 'trash') return;
    const res = await send('get', `/${kind}/${item.id}`, ADMIN_AUTH);
    expect({ status: res.status, recordStatus: res.body.status }).toEqual({ status: 200, recordStatus: state.status });
    if (mark) expect(JSON.stringify(res.body)).not.toContain(mark);
  }

  function expectAnswer(res: Response, outcome: Outcome): void {
    expect({ status: res.status, code: res.body?.code }).toEqual({ status: outcome.status, code: outcome.code });
    if (outcome.code) expect(res.body.data?.status).toBe(outcome.status);
  }

  describe.each(ITEM_KINDS)('%s', (kind) => {
    // ----- create -------------------------------------------------------------------------------
    const createRoute: Route = { kind, op: 'create', method: 'post', by: 'collection' };
    const createCells = ROLES.flatMap((role) =>
      REQUESTED.map((requested) => {
        const outcome = expected(createRoute, role, false, requested);
        return {
          name: `${routeLabel(createRoute)} · ${role} · status ${requested} → ${describeOutcome(outcome)}`,
          role,
          requested,
          outcome,
        };
      }),
    );

    it.each(createCells)('$name', async ({ role, requested, outcome }) => {
      const res = await send('post', `/${kind}`, authOf(role), { ...baseBody(kind), ...statusFields(requested) });
      expectAnswer(res, outcome);
      if (outcome.status === 201) {
        expect({ status: res.body.status, author: res.body.author }).toEqual({
          status: outcome.recordStatus,
          author: String(users[`${role as UserRoleName}:me`].id),
        });
      }
    });

    // ----- shared fixtures: reads, Allow, updates ---------------------------------------------
    describe('on shared fixture records', () => {
      const fixtures = new Map<string, Item>();
      const key = (owner: OwnerKey, state: State) => `${owner}|${state.label}`;
      const fixture = (role: Role, own: boolean, state: State): Item => {
        const item = fixtures.get(key(ownerOf(role, own), state));
        if (!item) throw new Error(`no fixture for ${role} ${own} ${state.label}`);
        return item;
      };

      beforeAll(async () => {
        const owners = [...new Set(REQUESTERS.map(({ role, own }) => ownerOf(role, own)))];
        for (const owner of owners) for (const state of STATES) fixtures.set(key(owner, state), await createItem(kind, owner, state));
      });

      it.each(itemCells(READ_ROUTES(kind)))('$name', async ({ route, role, own, state, outcome }) => {
        const item = fixture(role, own, state);
        const res = await send('get', itemPath(kind, route.by, item), authOf(role));
        expectAnswer(res, outcome);
        if (outcome.status === 200)
          expect({ id: res.body.id, status: res.body.status }).toEqual({ id: item.id, status: outcome.recordStatus });
      });

      const allowCells = READ_ROUTES(kind).flatMap((route) =>
        REQUESTERS.flatMap(({ role, own }) =>
          STATES.map((state) => {
            const allow = expectedAllow(route, role, own, state);
            return {
              name: `Allow of ${routeLabel(route)} · ${role} · ${ownLabel(role, own)} · ${state.label} → ${allow}`,
              route,
              role,
              own,
              state,
              allow,
            };
          }),
        ),
      );
      it.each(allowCells)('$name', async ({ route, role, own, state, allow }) => {
        const res = await send('get', itemPath(kind, route.by, fixture(role, own, state)), authOf(role));
        expect(res.headers.allow).toBe(allow);
      });

      it.each(itemCells(UPDATE_ROUTES(kind)))('$name', async ({ route, role, own, state, outcome }) => {
        const item = fixture(role, own, state);
        const mark = marker();
        const res = await send(route.method, itemPath(kind, route.by, item), authOf(role), { excerpt: mark });
        try {
          expectAnswer(res, outcome);
          if (outcome.status === 200) {
            expect({ id: res.body.id, status: res.body.status, excerptHasMark: String(res.body.excerpt).includes(mark) }).toEqual({
              id: item.id,
              status: outcome.recordStatus,
              excerptHasMark: true,
            });
          } else {
            await expectUnchanged(kind, item, state, mark);
          }
        } finally {
          if (res.status < 300 && res.body?.status !== state.status) await restore(kind, item, state);
        }
      });
    });

    // ----- delete: a record of its own per cell -------------------------------------------------
    it.each(itemCells(DELETE_ROUTES(kind)))('$name', async ({ route, role, own, state, outcome }) => {
      const item = await createItem(kind, ownerOf(role, own), state);
      const res = await send('delete', itemPath(kind, route.by, item), authOf(role));
      expectAnswer(res, outcome);
      if (outcome.status === 200) {
        expect({ id: res.body.id, status: res.body.status, trashedSlug: String(res.body.slug).endsWith('__trashed') }).toEqual({
          id: item.id,
          status: 'trash',
          trashedSlug: true,
        });
      } else {
        await expectUnchanged(kind, item, state);
      }
    });

    // ----- updates that carry a status: a record of its own per cell ----------------------------
    const statusRoute: Route = { kind, op: 'update', method: 'put', by: 'id' };
    const statusCells = (['contributor', 'author', 'editor'] as const).flatMap((role) =>
      [true, false]
        .filter((own) => own || role === 'contributor')
        .flatMap((own) =>
          STATES.flatMap((state) =>
            (['publish', 'future', 'private', 'draft', 'pending'] as const).map((requested) => {
              const outcome = expectedStatusChange(kind, role, own, state, requested);
              return {
                name: `${routeLabel(statusRoute)} {status: ${requested}} · ${role} · ${ownLabel(role, own)} · ${state.label} → ${describeOutcome(outcome)}`,
                role,
                own,
                state,
                requested,
                outcome,
              };
            }),
          ),
        ),
    );
    it.each(statusCells)('$name', async ({ role, own, state, requested, outcome }) => {
      const item = await createItem(kind, ownerOf(role, own), state);
      const res = await send('put', `/${kind}/${item.id}`, authOf(role), { status: requested });
      expectAnswer(res, outcome);
      if (outcome.status === 200) {
        expect({ status: res.body.status, author: res.body.author }).toEqual({
          status: outcome.recordStatus,
          author: String(users[ownerOf(role, own)].id),
        });
        // Restoring from the trash removes the `__trashed` suffix (§5.7).
        expect(String(res.body.slug).endsWith('__trashed')).toBe(outcome.recordStatus === 'trash');
      } else {
        await expectUnchanged(kind, item, state);
      }
    });
  });

  // ---------------------------------------------------------------------------------------------
  // Terms (§4.5 terms table, §11.9)
  // ---------------------------------------------------------------------------------------------
  describe.each(TERM_KINDS)('%s', (kind) => {
    const createTerm = async (): Promise<number> => {
      const res = await send('post', `/${kind}`, ADMIN_AUTH, { name: unique(`Matrix ${kind}`) });
      if (res.status !== 201) fail(`fixture ${kind}`, res);
      return res.body.id;
    };
    let shared: number;
    beforeAll(async () => {
      shared = await createTerm();
    });

    const create: Route = { kind, op: 'create', method: 'post', by: 'collection' };
    it.each(
      ROLES.map((role) => ({
        role,
        outcome: expected(create, role, false, null),
        name: `${routeLabel(create)} · ${role} → ${describeOutcome(expected(create, role, false, null))}`,
      })),
    )('$name', async ({ role, outcome }) => {
      const name = unique(`Matrix ${kind}`);
      const res = await send('post', `/${kind}`, authOf(role), { name });
      expectAnswer(res, outcome);
      if (outcome.status === 201) expect(res.body.name).toBe(name);
      else expect((await send('get', `/${kind}?hide_empty=0&search=${encodeURIComponent(name)}`, null)).body.total).toBe(0);
    });

    const updates = (['post', 'put', 'patch'] as const).flatMap((method) =>
      ROLES.map((role) => {
        const route: Route = { kind, op: 'update', method, by: 'id' };
        const outcome = expected(route, role, false, null);
        return { name: `${routeLabel(route)} · ${role} → ${describeOutcome(outcome)}`, method, role, outcome };
      }),
    );
    it.each(updates)('$name', async ({ method, role, outcome }) => {
      const mark = marker();
      const res = await send(method, `/${kind}/${shared}`, authOf(role), { description: mark });
      expectAnswer(res, outcome);
      if (outcome.status === 200) expect({ id: res.body.id, description: res.body.description }).toEqual({ id: shared, description: mark });
      else expect((await send('get', `/${kind}/${shared}`, null)).body.description).not.toBe(mark);
    });

    const remove: Route = { kind, op: 'delete', method: 'delete', by: 'id' };
    it.each(
      ROLES.map((role) => ({
        role,
        outcome: expected(remove, role, false, null),
        name: `${routeLabel(remove)} · ${role} → ${describeOutcome(expected(remove, role, false, null))}`,
      })),
    )('$name', async ({ role, outcome }) => {
      const id = await createTerm();
      const res = await send('delete', `/${kind}/${id}`, authOf(role));
      expectAnswer(res, outcome);
      expect((await send('get', `/${kind}/${id}`, null)).status).toBe(outcome.status === 200 ? 400 : 200);
    });

    const read: Route = { kind, op: 'read', method: 'get', by: 'id' };
    it.each(
      ROLES.map((role) => ({
        role,
        allow: expectedAllow(read, role, false, null),
        name: `GET /${kind}/<id> · ${role} → 200, Allow ${expectedAllow(read, role, false, null)}`,
      })),
    )('$name', async ({ role, allow }) => {
      const res = await send('get', `/${kind}/${shared}`, authOf(role));
      expect({ status: res.status, allow: res.headers.allow }).toEqual({ status: 200, allow });
    });
  });

  // ---------------------------------------------------------------------------------------------
  // Allow of the collections (§14.2)
  // ---------------------------------------------------------------------------------------------
  const collectionCells = [...ITEM_KINDS, ...TERM_KINDS].flatMap((kind) =>
    ROLES.map((role) => {
      const allow = expectedAllow({ kind, op: 'read', method: 'get', by: 'collection' }, role, false, null);
      return { name: `Allow of GET /${kind} · ${role} → ${allow}`, kind, role, allow };
    }),
  );
  it.each(collectionCells)('$name', async ({ kind, role, allow }) => {
    const res = await send('get', `/${kind}`, authOf(role));
    expect({ status: res.status, allow: res.headers.allow }).toEqual({ status: 200, allow });
  });
});
