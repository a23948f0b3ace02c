/** Marks a controller whose routes belong to an API namespace (`{base}/{namespace}/...`); the route table reads it. */
export const API_ROUTES = Symbol('api-routes');

/**
 * `namespace`: a namespace other than the configured one (e.g. `tec/v1`); the controller's own path
 * then starts with it (`@Controller('tec/v1/events')`) and the route table keeps the rest.
 */
export function ApiRoutes(namespace?: string): ClassDecorator {
  return (target) => Reflect.defineMetadata(API_ROUTES, namespace ?? true, target);
}
