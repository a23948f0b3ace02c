/**
 * Wraps a read so that callers of one event-loop turn share a single query without ever getting a
 * stale answer: the first caller of a turn schedules the read for the end of the turn (after the
 * I/O callbacks that delivered the requests), and everyone who calls before it starts joins it.
 * Every caller therefore gets the result of a read that began after it called. Under load this
 * turns one query per request into one per turn of the event loop.
 */
export function freshReads<T>(read: () => Promise<T>): () => Promise<T> {
  let gathering: Promise<T> | null = null;
  return () => {
    gathering ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      gathering = null;
      return read();
    });
    return gathering;
  };
}
