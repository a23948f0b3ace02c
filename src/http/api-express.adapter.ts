import { createServer, type OutgoingHttpHeader, type ServerResponse } from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { parseQueryString } from '../common/http/body.js';
import { entityTag } from '../common/http/entity-tags.js';
import { TextAnswer } from '../common/http/text-answer.js';
import { setAllowHeader } from './allow.js';
import { trustedProxies } from './trusted-proxies.js';
import {
  endNotModified,
  isNotModified,
  isPrivateRead,
  isValidatedRead,
  lastModifiedOf,
  type ReadCaching,
  setReadHeaders,
} from './conditional-reads.js';

/** The contract spells the charset in capitals (spec §14.1). */
export const JSON_CONTENT_TYPE = 'application/json; charset=UTF-8';

/**
 * An answer serialized once (by the response cache), written as it is: the bytes with their type,
 * the entity tag computed when they were, and the headers that describe them (`Last-Modified`,
 * totals, links; `X-Cache`), which a cached answer sets again.
 */
export class PreparedAnswer {
  constructor(
    readonly bytes: Buffer,
    readonly contentType: string,
    readonly etag: string,
    readonly headers: ReadonlyArray<readonly [string, OutgoingHttpHeader]>,
  ) {}
}

/**
 * Express as this API needs it: bracket query strings (spec §7.2), no framework ETag or
 * `X-Powered-By`, the client address from a trusted proxy when configured, and every JSON answer
 * written with the contract's content type (a `TextAnswer` with its own). Nest writes handler results and (through the exception
 * filter) errors with `reply`, so this is the one place JSON leaves the service; successful answers
 * get their `Allow` here, reads their entity tag and conditional answers (`sendBytes`).
 */
export class ApiExpressAdapter extends ExpressAdapter {
  constructor(
    trustProxy: boolean | number | string,
    private readonly maxHeaderBytes: number,
    private readonly caching: ReadCaching,
  ) {
    super();
    this.set('query parser', parseQueryString);
    this.set('trust proxy', trustedProxies(trustProxy));
    this.set('etag', false);
    this.disable('x-powered-by');
  }

  /** The server Nest listens on, with the configured limit on the request line and headers. */
  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions) return super.initHttpServer(options);
    super.initHttpServer(options);
    this.httpServer = createServer({ maxHeaderSize: this.maxHeaderBytes }, this.getInstance());
  }

  override reply(response: Response, body: unknown, statusCode?: number): void {
    if (statusCode) response.status(statusCode);
    // a successful answer of a matched route names the methods the requester may use; an error
    // answer (the exception filter's) has its own
    if (response.statusCode < 400 && response.req.ctx) setAllowHeader(response.req.ctx, response);
    if (body === undefined || body === null) {
      response.end();
      return;
    }
    if (body instanceof PreparedAnswer) {
      for (const [name, value] of body.headers) response.setHeader(name, value);
      return sendBytes(response, body.bytes, body.contentType, this.caching, body.etag);
    }
    if (body instanceof TextAnswer) return sendBytes(response, Buffer.from(body.text), body.contentType, this.caching);
    sendBytes(response, Buffer.from(JSON.stringify(body)), JSON_CONTENT_TYPE, this.caching);
  }
}

/**
 * Writes a serialized body with its content type. A `200` to `GET`/`HEAD` of the API first gets its
 * validators and caching headers (`ETag` of the bytes and representation headers, unless `etag`
 * is given: the response cache keeps it with the bytes) and, when the requester's copy is current,
 * becomes a `304` without a body.
 */
export function sendBytes(response: Response, bytes: Buffer, contentType: string, caching: ReadCaching, etag?: string): void {
  if (isValidatedRead(response)) {
    const tag = etag ?? entityTag(bytes, (name) => response.getHeader(name));
    setReadHeaders(response, tag, caching, isPrivateRead(response.req.ctx));
    if (isNotModified(response.req, tag, lastModifiedOf(response))) return endNotModified(response);
  }
  writeBytes(response, bytes, contentType);
}

/** Writes the bytes as they are. */
export function writeBytes(response: ServerResponse, bytes: Buffer, contentType: string): void {
  response.setHeader('Content-Type', contentType);
  response.setHeader('Content-Length', bytes.length);
  response.end(bytes);
}
