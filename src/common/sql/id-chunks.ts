/** Ids per `IN (...)` list when many rows are looked at or changed at once. */
const ID_CHUNK = 1000;

/** The ids in slices short enough for one `IN (...)` list each. */
export function* idChunks(ids: number[]): Generator<number[]> {
  for (let start = 0; start < ids.length; start += ID_CHUNK) yield ids.slice(start, start + ID_CHUNK);
}
