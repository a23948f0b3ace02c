import type { IncomingMessage } from 'node:http';
import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NextFunction, Request, Response } from 'express';
import getRawBody from 'raw-body';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { parseBody } from '../common/http/body.js';
import type { HttpConfig } from '../config/app-config.js';
import { sizeProblem } from './client-errors.js';

const RAW_BODY = Symbol('raw-body');

type WithRawBody = Request & { [RAW_BODY]?: Buffer };

/** The body of a request without one (never written to). */
const NO_BODY = Buffer.alloc(0);

/**
 * Reads a request's body, at most `maxBytes` (413 past it, 400 when the stream breaks off). The
 * caller has checked the declared length already.
 */
async function readRawBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  if (!req.headers['content-length'] && !req.headers['transfer-encoding']) return NO_BODY;
  try {
    return await getRawBody(req, { limit: maxBytes, length: req.headers['content-length'] });
  } catch (error) {
    throw (error as { type?: string }).type === 'entity.too.large'
      ? new ApiError(413, ErrorCode.PayloadTooLarge, { limit: maxBytes })
      : new ApiError(400, ErrorCode.InvalidJson);
  }
}

/** At most this much of a refused body is read (and dropped) so its sender gets to read the answer. */
const MAX_DISCARDED_BYTES = 64 * 1024 * 1024;

/**
 * Reads the rest of a refused body and drops it. Answering while the client still sends would close
 * the connection under it (it sees EPIPE or a reset instead of the 413); past the bound the
 * connection is closed all the same.
 */
function discardBody(req: IncomingMessage): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let discarded = 0;
    const done = () => {
      req.off('data', count);
      resolve();
    };
    const count = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > MAX_DISCARDED_BYTES) done();
    };
    req.on('data', count).once('end', done).once('close', done).once('error', done);
    req.resume();
  });
}

/**
 * Step 1 of the order of checks (spec §4.6): a request target longer than `MAX_URL_BYTES` is
 * refused with 414, a header section larger than `MAX_HEADER_BYTES` with 431, and a body larger than `MAX_BODY_BYTES` with 413, before anything else. The
 * bytes are kept, unparsed, until the route is known. (Longer targets and header sections than
 * Node's parser takes are answered at the server: `client-errors.ts`.)
 */
@Injectable()
export class BodyLimitMiddleware implements NestMiddleware {
  private readonly maxBytes: number;
  private readonly limits: HttpConfig;

  constructor(@Inject(ConfigService) config: ConfigService) {
    this.limits = config.getOrThrow<HttpConfig>('http');
    this.maxBytes = this.limits.maxBodyBytes;
  }

  async use(req: WithRawBody, res: Response, next: NextFunction): Promise<void> {
    const oversized = sizeProblem(req.originalUrl, req.rawHeaders, this.limits);
    if (oversized !== null) res.setHeader('Connection', 'close');
    if (oversized === 414) throw new ApiError(414, ErrorCode.UriTooLong, { limit: this.limits.maxUrlBytes });
    if (oversized === 431) throw new ApiError(431, ErrorCode.HeadersTooLarge, { limit: this.limits.maxHeaderBytes });
    if (!req.ctx.target) return next();
    try {
      if (Number(req.headers['content-length'] ?? 0) > this.maxBytes) {
        throw new ApiError(413, ErrorCode.PayloadTooLarge, { limit: this.maxBytes });
      }
      req[RAW_BODY] = await readRawBody(req, this.maxBytes);
    } catch (error) {
      if (error instanceof ApiError && error.status === 413) {
        res.setHeader('Connection', 'close');
        await discardBody(req);
      }
      throw error;
    }
    next();
  }
}

/**
 * Step 4 (spec §4.6), once the route is known: the body is parsed (JSON, form or multipart; 400
 * `rest_invalid_json`) and merged over the query string, the body winning (spec §7.1).
 */
@Injectable()
export class BodyParserMiddleware implements NestMiddleware {
  async use(req: WithRawBody, res: Response, next: NextFunction): Promise<void> {
    if (!req.ctx.target) return next();
    const body = await parseBody(req[RAW_BODY] ?? NO_BODY, req.headers['content-type']);
    const merged = { ...(req.query as Record<string, unknown>), ...body };
    Object.defineProperty(req, 'query', { value: merged, writable: true, configurable: true });
    req.body = merged;
    next();
  }
}
