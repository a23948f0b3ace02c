import { canCreate, canWriteItem, isEditorLevel, type OwnedItem, type Resource } from '../common/auth/permissions.js';
import type { Response } from 'express';
import type { AuthUser, RegisteredRoute, RequestContext } from '../common/http/request-context.js';

const TERM_RESOURCES = new Set(['categories', 'tags']);

/**
 * Methods of a route the requester may use (the `Allow` header, spec §14.2). `item` is the addressed
 * record once a service has loaded it; before that, the role alone decides.
 */
export function allowedMethods(route: RegisteredRoute, user: AuthUser | null, item: OwnedItem | null): string[] {
  const resource = route.path.split('/')[0] as Resource;
  const permitted = (method: string): boolean => {
    if (method === 'GET') return true;
    if (route.scope === 'collection') return canCreate(resource, user);
    if (route.scope !== 'item') return false;
    if (TERM_RESOURCES.has(resource)) return canCreate(resource, user);
    return item ? canWriteItem(user, item) : isEditorLevel(user);
  };
  return route.methods.filter(permitted);
}

/** The `Allow` field of an answer of a matched route (spec §14.2); null for other answers, which carry none. */
export function allowField(ctx: RequestContext): string | null {
  return ctx.route ? allowedMethods(ctx.route, ctx.user, ctx.subject).join(', ') : null;
}

/** Sets `Allow` on an answer of a matched route (spec §14.2); other answers carry none. */
export function setAllowHeader(ctx: RequestContext, response: Response): void {
  const allow = allowField(ctx);
  if (allow !== null) response.setHeader('Allow', allow);
}
