import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NextFunction, Request, Response } from 'express';
import { PinoLogger } from 'nestjs-pino';
import pino from 'pino';
import type { ApiConfig, LogConfig } from '../config/app-config.js';
import { Metrics } from '../metrics/metrics.js';
import { redactFeedTokens } from '../users/feed-token-secret.js';
import { RouteLabels } from './route-labels.js';

/** A request id a client or a proxy may send (`X-Request-Id`): short, printable, no spaces or quotes. */
const CLIENT_REQUEST_ID = /^[\w.:@+=/-]{1,128}$/;

/**
 * Whether request lines can be written: each is an `info` line, so at `warn` and above there is
 * none to write and no work is done for it.
 */
export function writesRequestLines(log: Pick<LogConfig, 'level' | 'requests'>): boolean {
  return log.requests && log.level !== 'silent' && pino.levels.values[log.level] <= pino.levels.values.info;
}

/** When the request arrived, and what its answer's end is reported to: kept on the response itself. */
const STARTED = Symbol('started');
const FINISHED = Symbol('finished');

interface WatchedResponse extends Response {
  [STARTED]: bigint;
  [FINISHED]: (res: WatchedResponse, msg: string) => void;
}

/**
 * The first step of the lifecycle. Every request gets an id: the client's `X-Request-Id` when it
 * sent a usable one, else a new UUID; the answer echoes it, and the lines written about the request
 * name it (`reqId`). When its answer is finished, two things may happen: with `LOG_REQUESTS` on, one
 * short line (method, target with feed tokens redacted, status, size, duration, the user's id and the
 * client's user agent — never the headers or the body); with `/metrics` on (`METRICS_TOKEN`), one
 * count in the request histogram by route pattern, method and status. Both share one listener,
 * which is a function of this module: a request costs no closure of its own.
 */
@Injectable()
export class RequestLogMiddleware implements NestMiddleware {
  private readonly lines: boolean;
  private readonly routes: RouteLabels | null;
  private readonly finished: (res: WatchedResponse, msg: string) => void;

  constructor(@Inject(ConfigService) config: ConfigService, metrics: Metrics) {
    this.lines = writesRequestLines(config.getOrThrow<LogConfig>('log'));
    this.routes = metrics.enabled ? new RouteLabels(metrics.requests, config.getOrThrow<ApiConfig>('api')) : null;
    const requests = metrics.requests;
    const routes = this.routes;
    const lines = this.lines;
    this.finished = (res, msg) => {
      const nanoseconds = process.hrtime.bigint() - res[STARTED];
      if (lines) writeLine(res.req, res, nanoseconds, msg);
      if (routes && msg === COMPLETED) requests.observe(routes.of(res.req), res.req.method, res.statusCode, Number(nanoseconds) / 1e9);
    };
  }

  use(req: Request, res: Response, next: NextFunction): void {
    const sent = req.headers['x-request-id'];
    const id = typeof sent === 'string' && CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    if (this.lines || this.routes) {
      const watched = res as WatchedResponse;
      watched[STARTED] = process.hrtime.bigint();
      watched[FINISHED] = this.finished;
      // each is emitted once per answer
      res.on('finish', onFinish);
      if (this.lines) res.on('close', onClose);
    }
    next();
  }
}

const COMPLETED = 'request completed';

function onFinish(this: WatchedResponse): void {
  this[FINISHED](this, COMPLETED);
}

function onClose(this: WatchedResponse): void {
  if (!this.writableFinished) this[FINISHED](this, 'request aborted');
}

function writeLine(req: Request, res: Response, nanoseconds: bigint, msg: string): void {
  const length = res.getHeader('Content-Length');
  // flat names: pino's own serializers would rewrite `req` and `res`
  const line = {
    reqId: req.id,
    method: req.method,
    url: redactFeedTokens(req.originalUrl),
    status: res.statusCode,
    bytes: length === undefined ? 0 : Number(length),
    ms: Math.round(Number(nanoseconds) / 1e4) / 100,
    userId: req.ctx?.user?.id ?? null,
    userAgent: req.headers['user-agent'],
  };
  if (res.statusCode >= 500) PinoLogger.root.error(line, 'request errored');
  else PinoLogger.root.info(line, msg);
}
