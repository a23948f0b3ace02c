import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { tap, type Observable } from 'rxjs';
import { setAllowHeader } from './allow.js';

/**
 * `Allow` on successful answers, computed once the handler has loaded the addressed record
 * (`ctx.subject`); error answers get theirs from the exception filter.
 */
@Injectable()
export class AllowHeaderInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    return next.handle().pipe(tap(() => setAllowHeader(http.getRequest<Request>().ctx, http.getResponse<Response>())));
  }
}
