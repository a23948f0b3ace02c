import { createServer } from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { parseQueryString } from '../common/http/body.js';
import { TextAnswer } from '../common/http/text-answer.js';

/** The contract spells the charset in capitals (spec §14.1). */
export const JSON_CONTENT_TYPE = 'application/json; charset=UTF-8';

/** A body serialized once (e.g. by the response cache), written as it is. */
export class SerializedJson {
  constructor(readonly bytes: Buffer) {}
}

/**
 * Express as this API needs it: bracket query strings (spec §7.2), no framework ETag or
 * `X-Powered-By`, the client address from a trusted proxy when configured, and every JSON answer
 * written with the contract's content type (a `TextAnswer` with its own). Nest writes handler results and (through the exception
 * filter) errors with `reply`, so this is the one place JSON leaves the service.
 */
export class ApiExpressAdapter extends ExpressAdapter {
  constructor(
    trustProxy: boolean | number | string,
    private readonly maxHeaderBytes: number,
  ) {
    super();
    this.set('query parser', parseQueryString);
    this.set('trust proxy', trustProxy);
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
    if (body === undefined || body === null) {
      response.end();
      return;
    }
    if (body instanceof TextAnswer) return sendBytes(response, Buffer.from(body.text), body.contentType);
    sendJson(response, body instanceof SerializedJson ? body.bytes : Buffer.from(JSON.stringify(body)));
  }
}

/** Writes JSON bytes with the contract's content type. */
export function sendJson(response: Response, bytes: Buffer): void {
  sendBytes(response, bytes, JSON_CONTENT_TYPE);
}

/** Writes a serialized body with its content type. */
export function sendBytes(response: Response, bytes: Buffer, contentType: string): void {
  response.setHeader('Content-Type', contentType);
  response.setHeader('Content-Length', bytes.length);
  response.end(bytes);
}
