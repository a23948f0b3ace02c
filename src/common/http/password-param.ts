import { parseQueryString } from './body.js';

/** The query parameter that opens a password-protected event, venue or organizer (spec §5.6). */
export const PASSWORD_PARAM = 'password';

/**
 * Whether a query string carries `password`, in any spelling the query parser reads as that name
 * (percent-encoded letters too): the answer then depends on a secret the requester holds, so it is
 * treated like an answer to credentials. Query strings without the word or any `%` are not parsed.
 */
export function carriesPassword(search: string): boolean {
  if (search === '' || (!search.includes(PASSWORD_PARAM) && !search.includes('%'))) return false;
  return Object.hasOwn(parseQueryString(search), PASSWORD_PARAM);
}
