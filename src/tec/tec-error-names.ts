import { ApiError } from '../common/errors/api-error.js';
import { type TecKind, V1_NAMES } from './tec-names.js';

/** Per kind, a v1 argument → the `tec/v1` argument it is written from: `V1_NAMES` reversed. */
const TEC_NAMES = Object.fromEntries(
  Object.entries(V1_NAMES).map(([kind, names]) => [kind, Object.fromEntries(Object.entries(names).map(([tec, v1]) => [v1, tec]))]),
) as Record<TecKind, Record<string, string>>;

/**
 * An error of the v1 write made for a `tec/v1` write, its parameters named as the `tec/v1` body
 * names them: `venues` for an unknown venue id (not v1's `venue`), a venue's missing `title` (not
 * `venue`), `tribe_events_cat`, `featured_media`… Any other error is returned as it is.
 */
export function inTecNames(kind: TecKind, error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const { problems, missing } = error.extra;
  if (!problems && !missing) return error;
  const tec = (param: string) => TEC_NAMES[kind][param] ?? param;
  const extra = { ...error.extra };
  if (problems) extra.problems = problems.map((problem) => ({ ...problem, param: tec(problem.param) }));
  if (missing) extra.missing = missing.map(tec);
  const params = (extra.missing ?? extra.problems?.map((problem) => problem.param) ?? []).join(', ');
  return new ApiError(error.status, error.code, { ...error.args, params }, extra);
}
