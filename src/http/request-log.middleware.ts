import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NextFunction, Request, Response } from 'express';
import { PinoLogger } from 'nestjs-pino';
import pino from 'pino';
import { type HttpLogger, type Options, pinoHttp } from 'pino-http';
import type { LogConfig } from '../config/app-config.js';
import { redactFeedTokens } from '../users/feed-token-secret.js';

/** The request as pino-http serialized it, with every `token` value of the target replaced. */
function withoutFeedTokens(req: { url?: string; query?: unknown }): object {
  const query = req.query && typeof req.query === 'object' && 'token' in req.query ? { ...req.query, token: '[REDACTED]' } : req.query;
  return Object.assign(req, { url: typeof req.url === 'string' ? redactFeedTokens(req.url) : req.url, query });
}

let lastRequestId = 0;

/** The next request id (one counter for the request lines and the error lines that name them). */
function nextRequestId(): number {
  return (lastRequestId = (lastRequestId + 1) & 0x7fffffff);
}

/**
 * Whether request lines can be written: pino-http writes each at `info`, so at `warn` and above
 * there is none to write, and the per-request work of pino-http (two child loggers, the request
 * serialised and redacted for their bindings) is skipped. A tenth of a cached read's CPU.
 */
export function writesRequestLines(log: Pick<LogConfig, 'level' | 'requests'>): boolean {
  return log.requests && log.level !== 'silent' && pino.levels.values[log.level] <= pino.levels.values.info;
}

/** The request log (pino-http): one line per request, numbered from one counter. */
export function requestLogOptions(log: Pick<LogConfig, 'level' | 'requests'>): Options {
  return {
    level: log.level,
    autoLogging: log.requests,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    // feed tokens travel in the query string: the request line keeps the parameter, not the secret
    serializers: { req: withoutFeedTokens },
    quietReqLogger: true,
    genReqId: (req) => req.id ?? nextRequestId(),
  };
}

/**
 * The first step of the lifecycle: one line per request when `LOG_REQUESTS` is on and `LOG_LEVEL`
 * writes `info` lines (nothing at all otherwise), written through the application's root logger. It replaces the middleware of
 * `nestjs-pino`'s `LoggerModule`, which also runs the rest of every request inside an
 * `AsyncLocalStorage`: on Node 20 a storage in use turns on a hook for every promise the process
 * creates, which cost about a tenth of an uncached read (docs/PERFORMANCE.md). Log lines written
 * while a request runs therefore carry no request id of their own; the one error line that matters
 * (an unexpected failure, `http/api-exception.filter.ts`) names it.
 */
@Injectable()
export class RequestLogMiddleware implements NestMiddleware {
  private readonly options: Options | null;
  /** Request lines on, but the level writes none: requests still get their id (the error lines name it). */
  private readonly idsOnly: boolean;
  private logger: HttpLogger | null = null;

  constructor(@Inject(ConfigService) config: ConfigService) {
    const log = config.getOrThrow<LogConfig>('log');
    this.options = writesRequestLines(log) ? requestLogOptions(log) : null;
    this.idsOnly = log.requests && this.options === null;
  }

  use(req: Request, res: Response, next: NextFunction): void {
    if (this.options === null) {
      if (this.idsOnly) req.id ??= nextRequestId();
      return next();
    }
    // the root logger exists once the logger module is configured, after this step was built
    this.logger ??= pinoHttp({ ...this.options, logger: PinoLogger.root });
    this.logger(req, res, next);
  }
}
