/**
 * Where the route step sends the requests it recognises but no resource serves: the API index
 * (`GET {base}/`), the bare origin and `OPTIONS` of a known route. They reach their controller
 * (`docs/namespace.controller.ts`) through the whole lifecycle like any route. No request arrives
 * at these paths as sent: the route step rewrites every API request's path, and refuses what it
 * does not recognise.
 */
export const INTERNAL_PATHS = {
  apiIndex: '/-/api-index',
  origin: '/-/origin',
  /** Followed by the route's canonical path. */
  options: '/-/options',
} as const;
