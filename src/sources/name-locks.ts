import pLimit from 'p-limit';

/**
 * Writes of one sync run that may share a name not yet stored (a venue, an organizer or a category
 * the feed names): the API's writes match such a name or create it, so two writes in flight with the
 * same new name would each create one. A write takes the names it brings before it starts and gives
 * them back when it ends; once a write holding a name has succeeded the name exists, and later writes
 * with it no longer wait.
 */
export class NameLocks {
  private readonly held = new Map<string, Promise<void>>();
  private readonly settled = new Set<string>();

  async holding<T>(names: readonly string[], work: () => Promise<T>): Promise<T> {
    let wanted = names.filter((name) => !this.settled.has(name));
    for (;;) {
      const busy = wanted.map((name) => this.held.get(name)).filter((held) => held !== undefined);
      if (busy.length === 0) break;
      await Promise.all(busy);
      wanted = wanted.filter((name) => !this.settled.has(name));
    }
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    for (const name of wanted) this.held.set(name, done);
    let succeeded = false;
    try {
      const result = await work();
      succeeded = true;
      return result;
    } finally {
      for (const name of wanted) {
        this.held.delete(name);
        if (succeeded) this.settled.add(name);
      }
      release();
    }
  }
}

/** Runs `work` on each item in order, at most `parallel` at once; after a failure no item starts, those in flight end, and the first failure is thrown. */
export async function eachInParallel<T>(
  items: readonly T[],
  parallel: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  const limit = pLimit(Math.max(1, parallel));
  const failures: unknown[] = [];
  await Promise.all(
    items.map((item, index) =>
      limit(async () => {
        if (failures.length > 0) return;
        await work(item, index).catch((error: unknown) => void failures.push(error));
      }),
    ),
  );
  if (failures.length > 0) throw failures[0];
}
