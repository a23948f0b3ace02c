import { VersionedValues, type DataVersionService } from './data-version.service.js';

/** A data version the test moves by hand. */
function versions(start = 5) {
  const state = { version: start };
  const source = { current: () => Promise.resolve(String(state.version)) } as unknown as DataVersionService;
  return { state, source };
}

describe('VersionedValues', () => {
  it('computes a key once per data version, shared by callers that overlap', async () => {
    const { state, source } = versions();
    const values = new VersionedValues<number>(source);
    let computed = 0;
    const compute = () => Promise.resolve(++computed);
    await expect(Promise.all([values.get('a', compute), values.get('a', compute)])).resolves.toEqual([1, 1]);
    await expect(values.get('a', compute)).resolves.toBe(1);
    await expect(values.get('b', compute)).resolves.toBe(2);
    state.version = 6;
    await expect(values.get('a', compute)).resolves.toBe(3);
    await expect(values.get('b', compute)).resolves.toBe(4);
    expect(computed).toBe(4);
  });

  it('computes for a caller that read an older version without keeping its value', async () => {
    const reads = ['8', '7', '8'];
    const source = { current: () => Promise.resolve(reads.shift() as string) } as unknown as DataVersionService;
    const values = new VersionedValues<string>(source);
    await expect(values.get('k', () => Promise.resolve('at 8'))).resolves.toBe('at 8');
    await expect(values.get('k', () => Promise.resolve('at 7'))).resolves.toBe('at 7');
    await expect(values.get('k', () => Promise.resolve('again'))).resolves.toBe('at 8');
  });

  it('forgets a failed computation', async () => {
    const { source } = versions();
    const values = new VersionedValues<number>(source);
    await expect(values.get('x', () => Promise.reject(new Error('lost connection')))).rejects.toThrow('lost connection');
    await expect(values.get('x', () => Promise.resolve(42))).resolves.toBe(42);
  });

  it('keeps at most its limit of keys, dropping the oldest', async () => {
    const { source } = versions();
    const values = new VersionedValues<string>(source, 2);
    let computed = 0;
    const compute = (name: string) => () => Promise.resolve(`${name}${++computed}`);
    await values.get('a', compute('a'));
    await values.get('b', compute('b'));
    await values.get('c', compute('c'));
    await expect(values.get('b', compute('b'))).resolves.toBe('b2');
    await expect(values.get('a', compute('a'))).resolves.toBe('a4');
  });
});
