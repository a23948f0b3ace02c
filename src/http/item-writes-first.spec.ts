import type { AppConfig } from '../config/app-config.js';
import { writesBeforeFramework } from './item-writes-first.js';

type Config = Pick<AppConfig, 'limits' | 'database'>;

function config(requestsPerMinute: number, trustProxy: boolean | number | string, replicaUrls: string[] | null): Config {
  const database = replicaUrls === null ? { kind: 'sqlite', path: ':memory:' } : { kind: 'mysql', url: 'mysql://db/calendar', replicaUrls };
  return { limits: { requestsPerMinute, trustProxy }, database } as unknown as Config;
}

describe('writesBeforeFramework', () => {
  it('is on without a request limit, a trusted proxy or read replicas', () => {
    expect(writesBeforeFramework(config(0, false, null))).toBe(true);
    expect(writesBeforeFramework(config(0, 0, []))).toBe(true);
  });

  it('is off with any of them: the pipeline must count the request, work out the address or add the token', () => {
    expect(writesBeforeFramework(config(60, false, null))).toBe(false);
    expect(writesBeforeFramework(config(0, true, null))).toBe(false);
    expect(writesBeforeFramework(config(0, 1, []))).toBe(false);
    expect(writesBeforeFramework(config(0, 'loopback', null))).toBe(false);
    expect(writesBeforeFramework(config(0, false, ['mysql://replica/calendar']))).toBe(false);
  });
});
