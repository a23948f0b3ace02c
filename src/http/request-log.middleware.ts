import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NextFunction, Request, Response } from 'express';
import { PinoLogger } from 'nestjs-pino';
import pino from 'pino';
import type { LogConfig } from '../config/app-config.js';
import { redactFeedTokens } from '../users/feed-token-secret.js';

/** A request id a client or a proxy may send (`X-Request-Id`): short, printable, no spaces or quotes. */
const CLIENT_REQUEST_ID = /^[\w.:@+=/-]{1,128}$/;

/**
 * Whether request lines can be written: each is an `info` line, so at `warn` and above there is
 * none to write and no work is done for it.
 */
export function writesRequestLines(log: Pick<LogConfig, 'level' | 'requests'>): boolean {
  return log.requests && log.level !== 'silent' && pino.levels.values[log.level] <= pino.levels.values.info;
}

/**
 * The first step of the lifecycle. Every request gets an id: the client's `X-Request-Id` when it
 * sent a usable one, else a new UUID; the answer echoes it, and the lines written about the request
 * name it (`reqId`). With `LOG_REQUESTS` on, one short line per request when its answer is
 * finished: method, target (feed tokens redacted), status, size, duration, the user's id and the
 * client's user agent — never the headers or the body.
 */
@Injectable()
export class RequestLogMiddleware implements NestMiddleware {
  private readonly lines: boolean;

  constructor(@Inject(ConfigService) config: ConfigService) {
    this.lines = writesRequestLines(config.getOrThrow<LogConfig>('log'));
  }

  use(req: Request, res: Response, next: NextFunction): void {
    const sent = req.headers['x-request-id'];
    const id = typeof sent === 'string' && CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    if (this.lines) {
      const started = process.hrtime.bigint();
      res.once('finish', () => writeLine(req, res, started, 'request completed'));
      res.once('close', () => {
        if (!res.writableFinished) writeLine(req, res, started, 'request aborted');
      });
    }
    next();
  }
}

function writeLine(req: Request, res: Response, started: bigint, msg: string): void {
  const length = res.getHeader('Content-Length');
  // flat names: pino's own serializers would rewrite `req` and `res`
  const line = {
    reqId: req.id,
    method: req.method,
    url: redactFeedTokens(req.originalUrl),
    status: res.statusCode,
    bytes: length === undefined ? 0 : Number(length),
    ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
    userId: req.ctx?.user?.id ?? null,
    userAgent: req.headers['user-agent'],
  };
  if (res.statusCode >= 500) PinoLogger.root.error(line, 'request errored');
  else PinoLogger.root.info(line, msg);
}
