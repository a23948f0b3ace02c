import type { RegisteredRoute, RequestContext } from '../common/http/request-context.js';

/**
 * The two answers the route middleware gives without a controller: the API index `GET {base}/`
 * (spec §13.3) and `OPTIONS` on a known route (§2.3 item 8). Provided by the module that owns the
 * namespace index (docs/), so this module does not depend on it.
 */
export interface RouteAnswers {
  apiIndex(ctx: RequestContext): unknown;
  routeEntry(ctx: RequestContext, route: RegisteredRoute): unknown;
}

export const ROUTE_ANSWERS = Symbol('route-answers');
