import type { UserRole } from '../auth/roles.js';
import type { OwnedItem } from '../auth/permissions.js';
import type { RegisteredRoute } from './route-registry.js';

export interface AuthUser {
  id: number;
  login: string;
  role: UserRole;
}

/** What the HTTP pipeline learned about a request before it reaches a controller. */
export interface RequestContext {
  /** Language code of the edition that was addressed. */
  edition: string;
  /** `{public_url}[/{lang}]{root}`. */
  base: string;
  /** `{base}/{namespace}`. */
  api: string;
  user: AuthUser | null;
  route: RegisteredRoute | null;
  /** Path parameters as written in the URL (before Express decodes them). */
  routeParams: Record<string, string>;
  /** The record a single-item route addressed, once loaded; the `Allow` header depends on it. */
  subject: OwnedItem | null;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      ctx: RequestContext;
    }
  }
}
