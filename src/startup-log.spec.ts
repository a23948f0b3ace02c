import { EventEmitter } from 'node:events';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pino from 'pino';
import { TurnBatchedLines } from './startup-log.js';

/** A stand-in for pino's destination that records what it is asked. */
class Target extends EventEmitter {
  readonly calls: string[] = [];
  write(text: string): boolean {
    this.calls.push(`write ${text}`);
    return true;
  }
  flushSync(): void {
    this.calls.push('flushSync');
  }
  end(): void {
    this.calls.push('end');
    this.emit('close');
  }
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
/** The file standing for standard output, and what was written to it. */
const file = join(mkdtempSync(join(tmpdir(), 'turn-batched-')), 'out');
const fd = openSync(file, 'w');
afterAll(() => closeSync(fd));
const batched = (target: Target) => new TurnBatchedLines(target as unknown as ReturnType<typeof pino.destination>, fd);

describe('TurnBatchedLines', () => {
  it('writes the lines of one turn of the event loop together, at the end of that turn', async () => {
    const target = new Target();
    const lines = batched(target);
    lines.write('a\n');
    lines.write('b\n');
    expect(target.calls).toEqual([]);
    await turn();
    expect(target.calls).toEqual(['write a\nb\n']);
    lines.write('c\n');
    await turn();
    await turn();
    expect(target.calls).toEqual(['write a\nb\n', 'write c\n']);
  });

  it('writes everything at once when flushed synchronously (at exit): what the stream holds, then the lines of the turn to the descriptor', async () => {
    const target = new Target();
    const lines = batched(target);
    lines.write('a\n');
    lines.write('b\n');
    lines.flushSync();
    expect(target.calls).toEqual(['flushSync']);
    expect(readFileSync(file, 'utf8')).toBe('a\nb\n');
    // nothing is written twice when the turn ends
    await turn();
    expect(target.calls).toEqual(['flushSync']);
  });

  it('ends the stream after the lines that wait, and takes nothing after', async () => {
    const target = new Target();
    const lines = batched(target);
    const closed = new Promise((resolve) => lines.once('close', () => resolve(true)));
    lines.write('last\n');
    lines.end();
    expect(await closed).toBe(true);
    lines.write('late\n');
    await turn();
    lines.flushSync();
    expect(target.calls).toEqual(['write last\n', 'end']);
  });
});
