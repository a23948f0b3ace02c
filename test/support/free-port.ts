import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Ports handed to child processes come from below the system's ephemeral range, which `listen(0)`
 * never picks. supertest opens such a short-lived server for every request it sends to an app, so a
 * port taken from the ephemeral range could be handed out again while a child is still booting,
 * and the child's readiness probe would be answered by another test's app.
 */
const EPHEMERAL_FIRST = (() => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768; // Linux's default
  }
})();
const LAST = Math.min(32_767, EPHEMERAL_FIRST - 1);
const FIRST = Math.max(10_000, LAST - 12_000);
const RESERVED = join(tmpdir(), 'calendar-test-ports');
const mine = new Set<string>();
process.once('exit', () => mine.forEach((file) => rmSync(file, { force: true })));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Reserves `port` for this process across the test processes of the machine (a file made exclusively). */
function reserve(port: number): boolean {
  const file = join(RESERVED, String(port));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      mine.add(file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let owner: number;
      try {
        owner = Number(readFileSync(file, 'utf8'));
      } catch {
        continue; // removed meanwhile
      }
      if (owner > 0 && alive(owner)) return false;
      rmSync(file, { force: true }); // left by a process that is gone
    }
  }
  return false;
}

async function bindable(port: number): Promise<boolean> {
  const server = createServer();
  const ok = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, () => resolve(true));
  });
  if (ok) await new Promise((resolve) => server.close(resolve));
  return ok;
}

/**
 * A port for a child process to listen on: free now, outside the ephemeral range, and not handed
 * out by any other test process until this one exits.
 */
export async function freePort(): Promise<number> {
  mkdirSync(RESERVED, { recursive: true });
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = FIRST + Math.floor(Math.random() * (LAST - FIRST + 1));
    if (!reserve(port)) continue;
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port between ${FIRST} and ${LAST}`);
}
