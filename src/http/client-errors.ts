import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorCode } from '../common/errors/error-codes.js';
import type { Translator } from '../i18n/translator.js';
import { JSON_CONTENT_TYPE } from './api-express.adapter.js';

/** How long a refused connection may keep sending what it had started before it is closed. */
const DRAIN_MS = 5_000;
/** At most this much of a refused request is read (and thrown away) before the connection is closed. */
const DRAIN_BYTES = 4 * 1024 * 1024;

export interface ClientErrorLimits {
  maxHeaderBytes: number;
  maxUrlBytes: number;
}

interface ParserError extends Error {
  code?: string;
  /** The bytes Node's parser was reading when it failed. */
  rawPacket?: Buffer;
}

/**
 * Requests Node's HTTP parser refuses before the application sees them (a request line and header
 * section beyond {@link parserHeaderLimit}, bytes that are not HTTP) still get an answer in the contract's shape: 414 when
 * the parser was still in the request line, 431 for the headers, 400 otherwise, always JSON with
 * `Connection: close`. The rest of what the client is sending is read and discarded for a moment
 * before the connection closes, so a client that sent its whole request reads the answer instead
 * of a connection reset. Messages are in the default edition's language (no route is known yet).
 */
export function answerClientErrors(server: Server, translator: Translator, language: string, limits: ClientErrorLimits): void {
  server.on('clientError', (error: ParserError, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, code, limit] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? inRequestLine(error.rawPacket)
          ? ([414, ErrorCode.UriTooLong, limits.maxUrlBytes] as const)
          : ([431, ErrorCode.HeadersTooLarge, limits.maxHeaderBytes] as const)
        : ([400, ErrorCode.BadRequest, 0] as const);
    const body = Buffer.from(JSON.stringify({ code, message: translator.t(language, `errors:${code}`, { limit }), data: { status } }));
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      `Content-Type: ${JSON_CONTENT_TYPE}`,
      `Content-Length: ${body.length}`,
      'Connection: close',
      '',
      '',
    ].join('\r\n');
    socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
    drain(socket);
  });
}

/** True while the parser has not yet seen the end of the request line. */
function inRequestLine(packet: Buffer | undefined): boolean {
  return packet !== undefined && packet.length > 0 && !packet.includes('\r\n') && !packet.includes('\n');
}

/** Reads and discards what the client still sends (bounded in time and bytes), then closes. */
function drain(socket: Duplex): void {
  let read = 0;
  const close = () => socket.destroy();
  const timer = setTimeout(close, DRAIN_MS);
  timer.unref();
  socket.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > DRAIN_BYTES) close();
  });
  socket.on('end', close);
  socket.on('close', () => clearTimeout(timer));
  socket.on('error', close);
  socket.resume();
}

/**
 * What Node's parser accepts: a few times the configured limits, so that the application itself
 * refuses most oversized requests (with the edition's language, `sizeProblem`); only beyond this
 * does the parser stop reading and `answerClientErrors` reply.
 */
export function parserHeaderLimit(limits: ClientErrorLimits): number {
  return 4 * Math.max(limits.maxHeaderBytes, limits.maxUrlBytes);
}

/** A request target or header section over the configured limits, found by the application. */
export function sizeProblem(url: string, rawHeaders: string[], limits: ClientErrorLimits): 414 | 431 | null {
  if (Buffer.byteLength(url, 'latin1') > limits.maxUrlBytes) return 414;
  // each header line: name, ": ", value, CRLF
  const headerBytes = rawHeaders.reduce((total, part) => total + Buffer.byteLength(part, 'latin1') + 2, 0);
  return headerBytes > limits.maxHeaderBytes ? 431 : null;
}
