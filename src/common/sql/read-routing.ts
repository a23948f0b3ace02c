import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Where the plain reads of the work running now may go. Outside any route (background jobs,
 * start-up, the CLI, writes and everything in their transactions) every query goes to the primary;
 * a read request that may be answered by a replica runs inside {@link onReplica}.
 */
export interface ReadRoute {
  /** The replica chosen for this request, or null for the primary. */
  replica: string | null;
  /** True when the chosen replica is known to hold at least this shared data version. */
  holdsDataVersion: (version: string) => boolean;
}

/** The response header of every successful write when replicas are configured, and the request header a read presents it in. */
export const CONSISTENCY_HEADER = 'X-Consistency-Token';
/** The same token for browsers, which send it back on their next requests by themselves. */
export const CONSISTENCY_COOKIE = 'calendar_consistency';

const routes = new AsyncLocalStorage<ReadRoute>();
/**
 * False until a request is first sent to a replica. Until then every context reads the primary, so
 * the storage is not used at all: on Node 20 a storage in use turns on a hook for every promise the
 * process creates, about a tenth of an uncached read's cost.
 */
let routing = false;

/** The replica the plain reads of the current work may use, or null: the primary. */
export function routedReplica(): string | null {
  return routing ? (routes.getStore()?.replica ?? null) : null;
}

/** Runs `work` with its plain reads sent to `route.replica`. */
export function onReplica<T>(route: ReadRoute, work: () => T): T {
  routing = true;
  return routes.run(route, work);
}

/** Runs `work` with every query on the primary, whatever the request around it chose. */
export function onPrimary<T>(work: () => T): T {
  return routing ? routes.run({ replica: null, holdsDataVersion: () => false }, work) : work();
}

/**
 * An answer about to be built for the shared data version `version` (the response cache) must not
 * come from a replica that may not hold it yet: the rest of the request then reads the primary.
 */
export function requireDataVersion(version: string): void {
  const route = routing ? routes.getStore() : undefined;
  if (route?.replica && !route.holdsDataVersion(version)) route.replica = null;
}

/** MariaDB's settings of one statement (`SET STATEMENT name = value[, ...] FOR`) before it. */
const STATEMENT_SETTINGS = /^\s*SET\s+STATEMENT\s+\w+\s*=\s*[\w.]+(?:\s*,\s*\w+\s*=\s*[\w.]+)*\s+FOR\s+/i;

/** A plain read a replica may answer: a `SELECT` (or `WITH`) that takes no lock, with settings of its own or not. */
export function isPlainRead(sql: string): boolean {
  const statement = sql.replace(STATEMENT_SETTINGS, '');
  return (
    /^\s*\(?\s*(SELECT|WITH)\b/i.test(statement) &&
    !/\bFOR\s+(UPDATE|SHARE)\b|\bLOCK\s+IN\s+SHARE\s+MODE\b|\bGET_LOCK\s*\(/i.test(statement)
  );
}
