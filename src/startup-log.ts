import { writeSync } from 'node:fs';
import type { LoggerService } from '@nestjs/common';
import { Logger, PinoLogger, type Params } from 'nestjs-pino';
import pino from 'pino';
import type { LogConfig } from './config/app-config.js';

/**
 * The application's logger before the application exists: the same pino logger (and the same JSON
 * lines) that nestjs-pino gives the application once it is built, so that what Nest, TypeORM and the
 * start-up itself say while the modules are created is written when it happens, as JSON, instead of
 * being held back and printed by Nest's own coloured console logger.
 */
export function startLogger(log: Pick<LogConfig, 'level'>): Logger {
  const params: Params = { pinoHttp: [{ level: log.level }, logDestination()] };
  return new Logger(new PinoLogger(params), params);
}

/**
 * Log lines handed to the system a turn of the event loop at a time: the lines of everything one
 * turn finished (under load, the answers of many requests) go out in one write of the stream below,
 * at the end of that same turn, so no line waits for more to come (the start-up line is out before
 * the turn that could answer a readiness probe). What is left when the process exits is written
 * then, synchronously.
 */
export class TurnBatchedLines implements pino.DestinationStream {
  private pending = '';
  private scheduled = false;
  /** Ended ({@link end}) or closed: takes no more lines. */
  private ended = false;

  constructor(
    private readonly target: ReturnType<typeof pino.destination>,
    private readonly fd: number,
  ) {
    target.once('close', () => (this.ended = true));
    process.once('exit', () => this.flushSync());
  }

  write(line: string): boolean {
    this.pending += line;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.writeTurn);
    }
    return true;
  }

  /**
   * Writes everything now, synchronously (at exit nothing asynchronous completes): what the stream
   * holds, then the lines of this turn straight to the file descriptor (a write of the stream would
   * start an asynchronous one).
   */
  flushSync(): void {
    this.scheduled = false;
    if (this.ended) return;
    this.target.flushSync();
    const text = this.pending;
    this.pending = '';
    if (text !== '') writeSync(this.fd, text);
  }

  /** Ends the stream once every line is written (`close` then). */
  end(): void {
    this.writeTurn();
    this.ended = true;
    this.target.end();
  }

  once(event: string, listener: () => void): this {
    this.target.once(event, listener);
    return this;
  }

  private readonly writeTurn = (): void => {
    this.scheduled = false;
    // an ended stream (a failed start's last line written) takes nothing more
    if (this.pending === '' || this.ended) return;
    const text = this.pending;
    this.pending = '';
    this.target.write(text);
  };
}

let destination: pino.DestinationStream | undefined;

/**
 * Where every JSON log line of the process goes: standard output, through one stream (pino's
 * asynchronous destination, fed a turn of the event loop at a time: {@link TurnBatchedLines}), so the
 * start-up logger's lines and the application's keep their order.
 */
export function logDestination(): pino.DestinationStream {
  destination ??= new TurnBatchedLines(pino.destination({ dest: 1, sync: false }), 1);
  return destination;
}

/** Nest's own start-up chatter (a line per module and per route): the start-up line says what matters. */
const STARTUP_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/**
 * The application's logger without Nest's informational start-up lines (warnings and errors pass),
 * and without the `ExceptionHandler` line Nest writes for an error that stops the start: that error
 * is thrown to whoever started the application, and `serve` writes it as the one fatal line.
 */
export class QuietStartLogger implements LoggerService {
  constructor(private readonly inner: LoggerService) {}

  log(message: unknown, ...rest: unknown[]): void {
    if (typeof rest.at(-1) === 'string' && STARTUP_CONTEXTS.has(rest.at(-1) as string)) return;
    this.inner.log(message, ...rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    if (rest.at(-1) === 'ExceptionHandler') return;
    this.inner.error(message, ...rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.inner.warn(message, ...rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.inner.debug?.(message, ...rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.inner.verbose?.(message, ...rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.inner.fatal?.(message, ...rest);
  }
}

/**
 * Whether start-up messages are for a person: on a terminal unless `LOG_FORMAT=json`. Read from the
 * environment as given, since it also decides how a configuration that cannot be read is reported.
 */
export function humanStartOutput(format: string | undefined): boolean {
  return process.stdout.isTTY === true && (format ?? '').trim().toLowerCase() !== 'json';
}

/**
 * A start that failed, said once: one plain line on standard error for a person at a terminal, else
 * one JSON line at level `fatal` on standard output, after every log line written before it and
 * whatever `LOG_LEVEL` says (the error's stack, if it has a useful one, inside it). Resolves once the
 * line is out, so the process can exit.
 */
export async function reportFailedStart(message: string, human: boolean, fields: Record<string, unknown> = {}): Promise<void> {
  if (human) {
    process.stderr.write(`${message}\n`);
    return;
  }
  const root = PinoLogger.root as pino.Logger | undefined;
  if (!root) {
    // before the application's logger exists (a configuration error): a logger of its own
    pino({ level: 'fatal' }, pino.destination({ fd: 1, sync: true })).fatal(fields, message);
    return;
  }
  // The application's log lines are written asynchronously, and pino writes a `fatal` line at once,
  // past those still on their way: so the line is queued behind them on the same stream, through a
  // logger of its own that formats it alike, and the stream is ended (which waits for them all).
  const stream = (root as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as {
    write: (line: string) => unknown;
    end?: () => void;
    once?: (event: string, listener: () => void) => void;
  };
  pino({ level: 'fatal' }, { write: (line: string) => stream.write(line) }).fatal(fields, message);
  if (typeof stream.end !== 'function' || typeof stream.once !== 'function') return;
  await new Promise<void>((resolve) => {
    setTimeout(resolve, 2000).unref();
    stream.once?.('close', resolve);
    stream.once?.('error', resolve);
    stream.end?.();
  });
}
