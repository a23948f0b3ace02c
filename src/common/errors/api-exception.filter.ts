import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Translator } from '../../i18n/translator.js';
import { ApiError } from './api-error.js';
import { isDatabaseUnavailable } from './db-errors.js';
import { sendError } from './error-renderer.js';
import { ErrorCode } from './error-codes.js';

/** Maps anything thrown to an {@link ApiError}; details of unexpected failures go to the log only. */
export function toApiError(error: unknown, logger?: Logger): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) {
    logger?.warn(`Database unavailable: ${(error as Error).message}`);
    return new ApiError(503, ErrorCode.DatabaseUnavailable, {}, { retryAfterSeconds: 5 });
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status === 404 || status === 405) return ApiError.noRoute();
    if (status === 413) return new ApiError(413, ErrorCode.PayloadTooLarge);
    if (status === 429) return new ApiError(429, ErrorCode.TooManyRequests);
    if (status < 500) return new ApiError(status, status === 400 ? ErrorCode.InvalidParam : ErrorCode.Forbidden);
  }
  logger?.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return new ApiError(500, ErrorCode.Internal);
}

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  constructor(
    private readonly translator: Translator,
    private readonly defaultEdition: string,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    if (!request.ctx?.route && exception instanceof HttpException && !(exception instanceof ApiError)) {
      // outside the API (health checks): keep the library's own answer
      response.status(exception.getStatus()).json(exception.getResponse());
      return;
    }
    const error = toApiError(exception, this.logger);
    sendError(response, error, this.translator, request.ctx?.edition ?? this.defaultEdition);
  }
}
