import { freshReads } from './fresh-reads.js';

/** A read whose answers the test releases one by one. */
function controlledRead() {
  const pending: Array<{ resolve: (value: number) => void; reject: (error: Error) => void }> = [];
  const read = () => new Promise<number>((resolve, reject) => pending.push({ resolve, reject }));
  return { read, pending };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('freshReads', () => {
  it('shares one read among the callers of one turn, started only after they all called', async () => {
    const { read, pending } = controlledRead();
    const current = freshReads(read);
    const calls = [current(), current(), current()];
    expect(pending).toHaveLength(0);
    await turn();
    expect(pending).toHaveLength(1);
    pending[0].resolve(7);
    await expect(Promise.all(calls)).resolves.toEqual([7, 7, 7]);
  });

  it('never lets a caller join a read that started before it called', async () => {
    const { read, pending } = controlledRead();
    const current = freshReads(read);
    const early = current();
    await turn();
    expect(pending).toHaveLength(1);
    const late = current(); // the first read is in flight: this one needs its own
    await turn();
    expect(pending).toHaveLength(2);
    pending[1].resolve(2);
    pending[0].resolve(1);
    await expect(early).resolves.toBe(1);
    await expect(late).resolves.toBe(2);
  });

  it('reports a failed read to its callers and starts afresh for the next ones', async () => {
    const { read, pending } = controlledRead();
    const current = freshReads(read);
    const failing = current();
    await turn();
    pending[0].reject(new Error('connection lost'));
    await expect(failing).rejects.toThrow('connection lost');
    const next = current();
    await turn();
    pending[1].resolve(5);
    await expect(next).resolves.toBe(5);
  });
});
