import type { Request } from 'express';
import type { RegisteredRoute } from '../common/http/request-context.js';
import type { ApiConfig } from '../config/app-config.js';
import type { RequestDurations, RouteSeries } from '../metrics/request-durations.js';
import { INTERNAL_PATHS } from './internal-paths.js';

/**
 * The `route` label of an answer: the pattern of the route that served it, never its URL, so the
 * number of series stays bounded whatever clients send. An API route is named by its pattern under
 * the default edition's namespace (`/wp-json/tribe/events/v1/events/:id`; every edition counts
 * there), another route by the path its controller declares (`/health/ready`, `/metrics`, the docs
 * pages), the API index as `/wp-json/` and the bare origin as `/`. A request answered before a route
 * was known (a refused body, credentials or request limit, `rest_no_route`) is `unmatched`; one
 * outside the API that no controller answered (the docs pages' files under `…/docs/`, served by
 * Swagger UI's static handler) is `static`.
 */
export class RouteLabels {
  private readonly api = new Map<RegisteredRoute, RouteSeries>();
  private readonly other = new Map<string, RouteSeries>();
  private readonly unmatched: RouteSeries;
  private readonly files: RouteSeries;
  private readonly namespace: string;
  private readonly root: string;
  private readonly internal: Record<string, string>;

  constructor(
    private readonly durations: RequestDurations,
    api: Pick<ApiConfig, 'root' | 'namespace'>,
  ) {
    this.namespace = `${api.root}/${api.namespace}`;
    this.root = api.root;
    this.internal = { [INTERNAL_PATHS.apiIndex]: `${api.root}/`, [INTERNAL_PATHS.origin]: '/' };
    this.unmatched = durations.route('unmatched');
    this.files = durations.route('static');
  }

  of(req: Request): RouteSeries {
    const route = req.ctx?.route;
    if (route) {
      let found = this.api.get(route);
      if (!found) {
        const namespace = route.namespace === null ? this.namespace : `${this.root}/${route.namespace}`;
        found = this.durations.route(route.path === '' ? namespace : `${namespace}/${route.path}`);
        this.api.set(route, found);
      }
      return found;
    }
    // Express's route of the controller that answered, when one did
    const path = (req.route as { path?: unknown } | undefined)?.path;
    if (typeof path !== 'string') return req.ctx && req.ctx.target === null ? this.files : this.unmatched;
    let found = this.other.get(path);
    if (!found) {
      found = this.durations.route(this.internal[path] ?? path);
      this.other.set(path, found);
    }
    return found;
  }
}
