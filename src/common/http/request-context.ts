import type { UserRole } from '../auth/roles.js';
import type { OwnedItem } from '../auth/owned-item.js';

export interface AuthUser {
  id: number;
  login: string;
  role: UserRole;
}

/** A route of the API namespace, as read from the controllers (see `http/route-registry.ts`). */
export interface RegisteredRoute {
  /** The namespace of the route when it is not the configured one (e.g. `tec/v1`); null for the configured one. */
  namespace: string | null;
  /** Path relative to the namespace, e.g. `events/:id`; `''` is the namespace route itself. */
  path: string;
  /** Public pattern as the namespace index writes it, e.g. `/events/(?P<id>\d+)`. */
  pattern: string;
  /** Methods in declaration order (the order `Allow` and the index use). */
  methods: string[];
  /** Collection routes allow creating; item routes allow updating and deleting. */
  scope: 'collection' | 'item' | 'other';
  paramNames: string[];
  matcher: RegExp;
  /** Methods whose handler reads with the rights of a `?token=` feed token (see `feed-token.ts`). */
  feedTokenMethods: string[];
}

/** What the request lifecycle learned about a request before it reaches a controller. */
export interface RequestContext {
  /** Language code of the edition that was addressed. */
  edition: string;
  /** `{public_url}[/{lang}]{root}`. */
  base: string;
  /** `{base}/{namespace}`. */
  api: string;
  /**
   * The path inside the edition (after `PUBLIC_URL`'s path and the edition prefix) and the query
   * string, as sent; null for requests outside the API (health checks, the docs page).
   */
  target: { path: string; search: string } | null;
  user: AuthUser | null;
  route: RegisteredRoute | null;
  /** Path parameters as written in the URL (before Express decodes them). */
  routeParams: Record<string, string>;
  /** The record a single-item route addressed, once loaded; the `Allow` header depends on it. */
  subject: OwnedItem | null;
  /**
   * Set by a step that found the answer to depend on more than the URL, the edition and the user
   * (a header the route requires); shared answers (the response cache) then pass the request by.
   */
  unshared?: boolean;
  /** The `If-Match` field as sent (RFC 9110 §13.1.1), or null; writes of one item evaluate it (`IfMatch`). */
  ifMatch: string | null;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      ctx: RequestContext;
    }
  }
}
