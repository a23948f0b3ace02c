import { createHash, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Request, Response } from 'express';
import { ApiError } from '../common/errors/api-error.js';
import type { MetricsConfig } from '../config/app-config.js';

const BEARER = /^Bearer +([\x21-\x7e]+) *$/i;

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/**
 * Who may read `/metrics`: a scraper that sends `Authorization: Bearer <METRICS_TOKEN>` (Prometheus'
 * `authorization` with `credentials_file`). Without `METRICS_TOKEN` the route does not exist (404
 * `rest_no_route`); a missing or wrong token is answered 401 `rest_forbidden` with
 * `WWW-Authenticate: Bearer`. Tokens are compared by their SHA-256 in constant time. Every answer,
 * metrics or refusal, is `Cache-Control: no-store`.
 */
@Injectable()
export class MetricsAccessGuard implements CanActivate {
  private readonly expected: Buffer | null;

  constructor(@Inject(ConfigService) config: ConfigService) {
    const token = config.getOrThrow<MetricsConfig>('metrics').token;
    this.expected = token === null ? null : digest(token);
  }

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const res = http.getResponse<Response>();
    res.setHeader('Cache-Control', 'no-store');
    if (this.expected === null) throw ApiError.noRoute();
    const sent = BEARER.exec(http.getRequest<Request>().headers.authorization ?? '')?.[1];
    if (sent === undefined || !timingSafeEqual(digest(sent), this.expected)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      throw ApiError.forbidden(false);
    }
    return true;
  }
}
