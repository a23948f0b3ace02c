import { MultiBar, Presets, type SingleBar } from 'cli-progress';
import type { ImportObserver } from '../importer/import-options.js';

/** Per resource: count/total, records per second and the time left, from the resource's own start. */
interface Pace {
  startedAt: number;
  first: number;
  lastLineAt: number;
}

function rate(pace: Pace, done: number): number {
  const seconds = (Date.now() - pace.startedAt) / 1000;
  return seconds > 0 ? (done - pace.first) / seconds : 0;
}

function eta(pace: Pace, done: number, total: number | null): string {
  const perSecond = rate(pace, done);
  if (total === null || perSecond <= 0) return done === total ? '0 s' : '?';
  const seconds = Math.max(0, Math.round((total - done) / perSecond));
  return seconds >= 60 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s` : `${seconds} s`;
}

/** `Run 12 of <source>.`; a dry run is no run of the source, so it shows no run number. */
function startLine(run: Parameters<NonNullable<ImportObserver['started']>>[0]): string {
  if (run.dryRun) return `Dry run of ${run.source} (writes nothing).`;
  return `Run ${run.id} of ${run.source}${run.resumed ? ` resumed at ${run.phase}` : ''}.`;
}

/**
 * Progress of `import:tec`: on a terminal one bar per resource (count/total, rate, ETA), redrawn in
 * place on standard error; elsewhere a plain line per resource at most every `everyMs` and when it
 * completes.
 */
export function importProgress(options: {
  tty: boolean;
  out: (line: string) => void;
  everyMs?: number;
}): ImportObserver & { close(): void } {
  const paces = new Map<string, Pace>();
  const pace = (resource: string, done: number) => {
    let found = paces.get(resource);
    if (!found) paces.set(resource, (found = { startedAt: Date.now(), first: done, lastLineAt: 0 }));
    return found;
  };
  if (!options.tty) {
    const everyMs = options.everyMs ?? 2000;
    return {
      started: (run) => options.out(startLine(run)),
      progress: (resource, done, total) => {
        const current = pace(resource, done);
        const complete = total !== null && done >= total;
        if (!complete && Date.now() - current.lastLineAt < everyMs) return;
        current.lastLineAt = Date.now();
        options.out(`${resource} ${done}/${total ?? '?'} (${rate(current, done).toFixed(1)}/s, ETA ${eta(current, done, total)})`);
      },
      note: (line) => options.out(line),
      close: () => undefined,
    };
  }
  const bars = new MultiBar(
    {
      format: '{resource} |{bar}| {value}/{total} | {speed}/s | ETA {left}',
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      stream: process.stderr,
    },
    Presets.shades_classic,
  );
  const byResource = new Map<string, SingleBar>();
  return {
    started: (run) => bars.log(`${startLine(run)}\n`),
    progress: (resource, done, total) => {
      const current = pace(resource, done);
      const payload = { resource: resource.padEnd(18), speed: rate(current, done).toFixed(1), left: eta(current, done, total) };
      let bar = byResource.get(resource);
      if (!bar) byResource.set(resource, (bar = bars.create(total ?? done, done, payload)));
      if (total !== null) bar.setTotal(total);
      bar.update(done, payload);
    },
    note: (line) => bars.log(`${line}\n`),
    close: () => bars.stop(),
  };
}
