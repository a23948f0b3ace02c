import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Injectable, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import { ApiError } from '../common/errors/api-error.js';
import { isDatabaseMarkedDown, isDatabaseUnavailable } from '../common/errors/db-errors.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { Editions } from '../editions/editions.js';
import { Translator } from '../i18n/translator.js';
import type { ErrorResponse } from '../common/errors/error.response.js';
import type { RequestContext } from '../common/http/request-context.js';
import { allowField } from './allow.js';
import { renderError } from './error-renderer.js';

/** Answers that refuse the requester: bad or missing credentials (401), no permission (403), a login lock or request limit (429). */
const REFUSALS = new Set([401, 403, 429]);
const REFUSAL_CACHE_CONTROL = 'no-store';

/**
 * Maps anything thrown to an {@link ApiError}; details of unexpected failures go to the log only,
 * with the request's id (`requestId`, the one of its request-log line) when there is one.
 */
export function toApiError(error: unknown, logger?: Logger, requestId?: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) {
    if (!isDatabaseMarkedDown(error)) logger?.warn(`Database unavailable: ${(error as Error).message}`);
    return new ApiError(503, ErrorCode.DatabaseUnavailable, {}, { retryAfterSeconds: 5 });
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status === 404 || status === 405) return ApiError.noRoute();
    if (status === 413) return new ApiError(413, ErrorCode.PayloadTooLarge);
    if (status === 429) return new ApiError(429, ErrorCode.TooManyRequests);
    if (status < 500) return new ApiError(status, status === 400 ? ErrorCode.InvalidParam : ErrorCode.Forbidden);
  }
  const details = error instanceof Error ? (error.stack ?? error.message) : String(error);
  logger?.error(requestId === undefined ? details : { reqId: requestId, msg: details });
  return new ApiError(500, ErrorCode.Internal);
}

/**
 * The one error answer of the API (spec §12.1), registered as `APP_FILTER`: whatever a middleware,
 * pipe, guard, interceptor or handler throws becomes `{code, message, data: {status}}` in the
 * edition's language, with `Retry-After` and `Allow` where they apply.
 */
@Catch()
@Injectable()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly translator: Translator,
    private readonly editions: Editions,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const adapter = this.adapterHost.httpAdapter;
    if (!request.ctx?.target && exception instanceof HttpException && !(exception instanceof ApiError) && exception.getStatus() === 503) {
      // outside the API, a failed health check keeps the library's own answer (the state of each check)
      adapter.reply(response, exception.getResponse(), exception.getStatus());
      return;
    }
    const error = toApiError(exception, this.logger, request.id);
    if (response.headersSent) {
      response.end();
      return;
    }
    const answer = errorAnswer(error, request.ctx, this.translator, request.ctx?.edition ?? this.editions.defaultEdition);
    for (const [name, value] of answer.headers) response.setHeader(name, value);
    // credentials, a lock or a permission decided it: no cache keeps it (answers to valid credentials are marked already)
    if (REFUSALS.has(error.status) && !response.hasHeader('Cache-Control')) response.setHeader('Cache-Control', REFUSAL_CACHE_CONTROL);
    adapter.reply(response, answer.payload, error.status);
  }
}

/**
 * The error answer of the API to a request with `ctx` (none outside the lifecycle): the headers it
 * adds to those set so far (`Retry-After` where the error gives a wait, `Allow` on a matched route)
 * and its payload in the edition's language. The status is the error's.
 */
export function errorAnswer(
  error: ApiError,
  ctx: RequestContext | undefined,
  translator: Translator,
  edition: string,
): { headers: Array<[string, string]>; payload: ErrorResponse } {
  const headers: Array<[string, string]> = [];
  if (error.extra.retryAfterSeconds !== undefined) headers.push(['Retry-After', String(error.extra.retryAfterSeconds)]);
  const allow = ctx ? allowField(ctx) : null;
  if (allow !== null) headers.push(['Allow', allow]);
  return { headers, payload: renderError(error, translator, edition) };
}
