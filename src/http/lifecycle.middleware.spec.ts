import { AsyncLocalStorage } from 'node:async_hooks';
import type { NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { LifecycleMiddleware } from './lifecycle.middleware.js';
import { trustedProxies } from './trusted-proxies.js';

type Use = (req: Request, res: Response, next: NextFunction) => void | Promise<void>;

const step = (use: Use): NestMiddleware => ({ use });
const tick = () => new Promise((resolve) => setImmediate(resolve));
const req = {} as Request;
const res = {} as Response;

/** Runs the steps as Nest's middleware proxy does: awaits `use`, and what it throws or rejects with is the error. */
async function runAll(steps: NestMiddleware[]): Promise<{ trail: string[]; forwarded: unknown[]; thrown: unknown }> {
  const trail: string[] = [];
  const forwarded: unknown[] = [];
  let thrown: unknown = null;
  const named = steps.map((s, index) => step((rq, rs, next) => (trail.push(`step ${index}`), s.use(rq, rs, next) as void | Promise<void>)));
  try {
    await new LifecycleMiddleware(named).use(req, res, (error?: unknown) => {
      forwarded.push(error ?? 'next');
    });
  } catch (error) {
    thrown = error;
  }
  // settle anything a step left behind
  await tick();
  return { trail, forwarded, thrown };
}

describe('LifecycleMiddleware', () => {
  it('runs every step in order, synchronous and asynchronous, then hands on once', async () => {
    const result = await runAll([
      step((_q, _s, next) => next()),
      step(async (_q, _s, next) => {
        await tick();
        next();
      }),
      step((_q, _s, next) => next()),
    ]);
    expect(result).toEqual({ trail: ['step 0', 'step 1', 'step 2'], forwarded: ['next'], thrown: null });
  });

  it('stops at a step that answers without calling next', async () => {
    const result = await runAll([step((_q, _s, next) => next()), step(() => undefined), step((_q, _s, next) => next())]);
    expect(result).toEqual({ trail: ['step 0', 'step 1'], forwarded: [], thrown: null });
  });

  it("gives what any step throws, or its promise rejects with, to the caller of use (Nest's exception filters)", async () => {
    const refused = new Error('refused');
    const sync = await runAll([
      step((_q, _s, next) => next()),
      step(() => {
        throw refused;
      }),
    ]);
    expect(sync).toEqual({ trail: ['step 0', 'step 1'], forwarded: [], thrown: refused });
    const late = await runAll([
      step(async (_q, _s, next) => {
        await tick();
        next();
      }),
      step((_q, _s, next) => next()),
      step(async () => {
        await tick();
        throw refused;
      }),
    ]);
    expect(late).toEqual({ trail: ['step 0', 'step 1', 'step 2'], forwarded: [], thrown: refused });
  });

  it('hands an error given to next on, and treats a falsy one as none', async () => {
    const broken = new Error('broken');
    expect(await runAll([step((_q, _s, next) => next(broken)), step((_q, _s, next) => next())])).toEqual({
      trail: ['step 0'],
      forwarded: [broken],
      thrown: null,
    });
    expect(await runAll([step((_q, _s, next) => next(null)), step((_q, _s, next) => next())])).toEqual({
      trail: ['step 0', 'step 1'],
      forwarded: ['next'],
      thrown: null,
    });
  });

  it('runs the steps after one inside its next, so a context it opens around next holds for them', async () => {
    const storage = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    await runAll([
      step((_q, _s, next) => storage.run('replica', () => next())),
      step(async (_q, _s, next) => {
        await tick();
        seen.push(storage.getStore());
        next();
      }),
    ]);
    expect(seen).toEqual(['replica']);
  });
});

describe('trustedProxies', () => {
  it('keeps hop counts and true/false as Express takes them', () => {
    expect(trustedProxies(2)).toBe(2);
    expect(trustedProxies(false)).toBe(false);
    expect(trustedProxies(true)).toBe(true);
  });

  it('answers for addresses and subnets as proxy-addr does, the same each time it is asked', () => {
    const trust = trustedProxies('loopback, 10.0.0.0/8') as (address: string, hop: number) => boolean;
    for (let round = 0; round < 2; round++) {
      expect(trust('127.0.0.1', 0)).toBe(true);
      expect(trust('::ffff:127.0.0.1', 0)).toBe(true);
      expect(trust('::1', 0)).toBe(true);
      expect(trust('10.20.30.40', 1)).toBe(true);
      expect(trust('203.0.113.10', 0)).toBe(false);
    }
  });
});
