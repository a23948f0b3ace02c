import { eachInParallel, NameLocks } from './name-locks.js';

/** A promise settled from outside, to hold a piece of work in flight for as long as a test wants. */
function gate() {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<void>((resolve, reject) => ((open = resolve), (fail = reject)));
  return { promise, open, fail };
}
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('NameLocks', () => {
  it('keeps two writes bringing the same new name apart, and lets writes with other names run beside them', async () => {
    const locks = new NameLocks();
    const started: string[] = [];
    const first = gate();
    const a = locks.holding(['venue:hall'], () => (started.push('a'), first.promise));
    const b = locks.holding(['venue:hall', 'category:x'], () => (started.push('b'), Promise.resolve()));
    const c = locks.holding(['category:y'], () => (started.push('c'), Promise.resolve()));
    await turn();
    expect(started).toEqual(['a', 'c']);
    first.open();
    await Promise.all([a, b, c]);
    expect(started).toEqual(['a', 'c', 'b']);
  });

  it('stops holding a name back once a write with it has succeeded, but not after one failed', async () => {
    const locks = new NameLocks();
    const failing = gate();
    const failed = locks.holding(['venue:new'], () => failing.promise);
    const started: string[] = [];
    const second = gate();
    const after = locks.holding(['venue:new'], () => (started.push('second'), second.promise));
    const third = locks.holding(['venue:new'], () => (started.push('third'), Promise.resolve()));
    failing.fail(new Error('refused'));
    await expect(failed).rejects.toThrow('refused');
    await turn();
    // the failed write created nothing: the next one takes the name alone
    expect(started).toEqual(['second']);
    second.open();
    await Promise.all([after, third]);
    expect(started).toEqual(['second', 'third']);
    // settled: two more run at once
    const both: string[] = [];
    const held = gate();
    const d = locks.holding(['venue:new'], () => (both.push('d'), held.promise));
    const e = locks.holding(['venue:new'], () => (both.push('e'), held.promise));
    await turn();
    expect(both).toEqual(['d', 'e']);
    held.open();
    await Promise.all([d, e]);
  });
});

describe('eachInParallel', () => {
  it('runs every item in order of starting, never more than the limit at once', async () => {
    let inFlight = 0;
    let most = 0;
    const order: number[] = [];
    await eachInParallel([0, 1, 2, 3, 4, 5, 6], 3, async (item) => {
      order.push(item);
      most = Math.max(most, ++inFlight);
      await turn();
      inFlight--;
    });
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(most).toBe(3);
  });

  it('starts nothing after a failure, lets the items in flight end, and throws the first failure', async () => {
    const ended: number[] = [];
    const run = eachInParallel([0, 1, 2, 3, 4], 2, async (item) => {
      if (item === 1) throw new Error('database gone');
      await turn();
      ended.push(item);
    });
    await expect(run).rejects.toThrow('database gone');
    expect(ended).toEqual([0]);
  });
});
