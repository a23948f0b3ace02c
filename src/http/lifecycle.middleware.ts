import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/** The steps of the lifecycle's middleware, in their order (`AppModule` provides them). */
export const LIFECYCLE_STEPS = Symbol('LIFECYCLE_STEPS');

/**
 * The service's own middleware as one Nest middleware: its steps run in their order, each handing
 * on to the next with `next()` (or answering, or failing), and the last one hands on to whatever
 * Nest runs after it (an extension's middleware, then the router). One middleware rather than one
 * per step because Express pays per middleware layer (matching, path trimming, Nest's wrapper) and
 * these steps apply to every request alike.
 *
 * A step's `next` runs the following steps inside it, so what a step sets around its `next()` (the
 * read replica's context) holds for them. Whatever a step throws, or its promise rejects with, and
 * whatever the steps after it throw or reject with, comes out of `use`, where Nest's middleware proxy
 * gives it to the exception filters, as it does for any middleware.
 */
@Injectable()
export class LifecycleMiddleware implements NestMiddleware {
  constructor(@Inject(LIFECYCLE_STEPS) private readonly steps: readonly NestMiddleware[]) {}

  use(req: Request, res: Response, next: NextFunction): void | Promise<void> {
    return this.run(0, req, res, next);
  }

  private run(index: number, req: Request, res: Response, next: NextFunction): void | Promise<void> {
    if (index === this.steps.length) return next();
    let after: void | Promise<void> = undefined;
    const step = this.steps[index].use(req, res, (error?: unknown) => {
      after = error ? next(error) : this.run(index + 1, req, res, next);
    }) as void | Promise<void>;
    if (step instanceof Promise) return step.then(() => after);
    return after;
  }
}
