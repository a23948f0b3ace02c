import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * Whether a process (or, for a negative number, a process group) is still running: one that may not
 * be signalled (`EPERM`) exists all the same.
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** One line the server wrote, when it arrived (ms since the spawn) and on which stream. */
export interface OutputLine {
  stream: 'stdout' | 'stderr';
  text: string;
  at: number;
}

/** The built server (`node dist/src/main.js`) as a child process, with every line it writes. */
export interface ServerProcess {
  child: ChildProcess;
  /** When it was spawned (ms since 1970), to compare with the `time` of its log lines. */
  startedAt: number;
  lines: OutputLine[];
  /** Resolves with the exit code (null for a signal) and the time of the exit in ms since the spawn. */
  exited: Promise<{ code: number | null; at: number }>;
  /** Waits until a line satisfies `match` (rejects when the process exits first or after `ms`). */
  waitForLine: (match: (line: OutputLine) => boolean, ms: number) => Promise<OutputLine>;
  stop: () => void;
}

/** Builds dist/ when a source is newer than the last build (as `npm start` does). */
export function ensureBuilt(): void {
  execFileSync(process.execPath, ['scripts/ensure-built.mjs'], { stdio: 'inherit' });
}

/**
 * Starts the built server with exactly `env` added to a bare environment (PATH and HOME only, so
 * nothing of the test run's own DATABASE_URL or LOG_ settings leaks in).
 */
export function startServer(env: Record<string, string>): ServerProcess {
  const started = Date.now();
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: OutputLine[] = [];
  const waiters = new Set<() => void>();
  for (const stream of ['stdout', 'stderr'] as const) {
    createInterface({ input: child[stream] as NodeJS.ReadableStream }).on('line', (text) => {
      lines.push({ stream, text, at: Date.now() - started });
      for (const wake of waiters) wake();
    });
  }
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once('exit', (code) => {
      const at = Date.now() - started;
      // the last lines may still be in the pipes: let readline hand them over first
      setTimeout(() => {
        resolve({ code, at });
        for (const wake of waiters) wake();
      }, 200);
    }),
  );
  let done = false;
  void exited.then(() => (done = true));

  const waitForLine = (match: (line: OutputLine) => boolean, ms: number) =>
    new Promise<OutputLine>((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`no such line within ${ms} ms; lines: ${lines.map((l) => l.text).join('\n')}`)), ms);
      const check = () => {
        const found = lines.find(match);
        if (found) finish(null, found);
        else if (done) finish(new Error(`the server exited first; lines: ${lines.map((l) => l.text).join('\n')}`));
      };
      const finish = (error: Error | null, line?: OutputLine) => {
        clearTimeout(timer);
        waiters.delete(check);
        if (error) reject(error);
        else resolve(line as OutputLine);
      };
      waiters.add(check);
      check();
    });

  return {
    child,
    startedAt: started,
    lines,
    exited,
    waitForLine,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** Each line parsed as a JSON object, or the lines that are not one. */
export function parseJsonLines(lines: OutputLine[]): { records: Array<Record<string, unknown> & { at: number }>; notJson: string[] } {
  const records: Array<Record<string, unknown> & { at: number }> = [];
  const notJson: string[] = [];
  for (const line of lines) {
    try {
      const value: unknown = JSON.parse(line.text);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) records.push({ ...value, at: line.at });
      else notJson.push(`${line.stream}: ${line.text}`);
    } catch {
      notJson.push(`${line.stream}: ${line.text}`);
    }
  }
  return { records, notJson };
}
