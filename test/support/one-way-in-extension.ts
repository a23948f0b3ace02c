import {
  type CallHandler,
  type CanActivate,
  type DynamicModule,
  type ExecutionContext,
  ForbiddenException,
  Injectable,
  type MiddlewareConsumer,
  Module,
  type NestInterceptor,
  type NestMiddleware,
  type NestModule,
} from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import type { Observable } from 'rxjs';

export type Sighter = 'middleware' | 'guard' | 'interceptor';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * What a team's extension sees of the requests: one `METHOD /path?query` line per request for each
 * of its middleware, global guard and global interceptor, in the order they came. `onSight` hears
 * each line as it is written (the server process test keeps them in a file).
 */
export class Sightings {
  readonly middleware: string[] = [];
  readonly guard: string[] = [];
  readonly interceptor: string[] = [];
  /** When set, the guard refuses reads without `X-Key: k` too. */
  readsNeedKey = false;

  constructor(private readonly onSight?: (by: Sighter, line: string) => void) {}

  see(by: Sighter, req: Request): void {
    const line = `${req.method} ${req.originalUrl}`;
    this[by].push(line);
    this.onSight?.(by, line);
  }

  clear(): void {
    for (const by of ['middleware', 'guard', 'interceptor'] as const) this[by].length = 0;
  }
}

@Injectable()
class SightingMiddleware implements NestMiddleware {
  constructor(private readonly sightings: Sightings) {}

  use(req: Request, _res: Response, next: NextFunction): void {
    this.sightings.see('middleware', req);
    next();
  }
}

@Injectable()
class TenantGuard implements CanActivate {
  constructor(private readonly sightings: Sightings) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    this.sightings.see('guard', req);
    // the tenancy rule: writes need `X-Tenant: ok`; while `readsNeedKey` is set, reads need `X-Key: k`
    const permitted = WRITE_METHODS.has(req.method)
      ? req.headers['x-tenant'] === 'ok'
      : !this.sightings.readsNeedKey || req.headers['x-key'] === 'k';
    if (!permitted) throw new ForbiddenException();
    return true;
  }
}

@Injectable()
class SightingInterceptor implements NestInterceptor {
  constructor(private readonly sightings: Sightings) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    this.sightings.see('interceptor', context.switchToHttp().getRequest<Request>());
    return next.handle();
  }
}

/**
 * A team's extension as docs/EXTENDING.md registers one (`createApp(config, { modules: [...] })`,
 * `serve({ modules: [...] })`): a global guard (`APP_GUARD`), a global interceptor (`APP_INTERCEPTOR`)
 * and a middleware for all routes, each writing down the requests it sees into `sightings`.
 */
@Module({})
export class OneWayInModule implements NestModule {
  static with(sightings: Sightings): DynamicModule {
    return {
      module: OneWayInModule,
      providers: [
        { provide: Sightings, useValue: sightings },
        SightingMiddleware,
        { provide: APP_GUARD, useClass: TenantGuard },
        { provide: APP_INTERCEPTOR, useClass: SightingInterceptor },
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(SightingMiddleware).forRoutes('*');
  }
}
