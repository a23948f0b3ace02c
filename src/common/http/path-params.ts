import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { RequestContext } from './request-context.js';

/**
 * The `<id>` of the path (digits, leading zeros allowed); path values always win over body and query.
 * `@PathId('note_id')` reads another id parameter (any `:…_id` segment, see `http/route-registry.ts`).
 */
export const PathId = createParamDecorator((name: string | undefined, context: ExecutionContext): number => {
  const raw = context.switchToHttp().getRequest<Request>().ctx.routeParams[name ?? 'id'] ?? '';
  return Number(raw);
});

/** The `<slug>` of the path, percent-decoded and lower-cased (spec §2.3 item 4). */
export const PathSlug = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const raw = context.switchToHttp().getRequest<Request>().ctx.routeParams.slug ?? '';
  try {
    return decodeURIComponent(raw).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
});

export const Ctx = createParamDecorator((_data: unknown, context: ExecutionContext): RequestContext => {
  return context.switchToHttp().getRequest<Request>().ctx;
});
