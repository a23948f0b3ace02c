import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { from, mergeMap, type Observable } from 'rxjs';
import { DataVersionService } from './data-version.service.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * After every successful write the data version goes up before the answer leaves, so the very next
 * read — in this process or another — does not get an answer cached before the write.
 */
@Injectable()
export class WriteVersionInterceptor implements NestInterceptor {
  constructor(private readonly version: DataVersionService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    if (READS.has(request.method)) return next.handle();
    return next.handle().pipe(mergeMap((body) => from(this.version.bump().then(() => body))));
  }
}
