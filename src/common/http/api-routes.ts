/** Marks a controller whose routes belong to the API namespace (`{api}/...`); the route table reads it. */
export const API_ROUTES = Symbol('api-routes');

export function ApiRoutes(): ClassDecorator {
  return (target) => Reflect.defineMetadata(API_ROUTES, true, target);
}
