import { linkSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alive } from './server-process.js';

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
let swept = false;

/** Whether the owner of a reservation (0 when unknown) is still running. */
function ownerAlive(pid: number): boolean {
  return pid > 0 && alive(pid);
}

/** The owner's pid of a reservation, or 0 when it is gone or unreadable. */
function ownerOf(file: string): number {
  try {
    return Number(readFileSync(file, 'utf8')) || 0;
  } catch {
    return 0;
  }
}

/**
 * Removes the reservations of processes that are gone. A reservation lasts as long as its process
 * (a test worker, whose exit no handler of a test file sees), so each process sweeps once.
 */
function sweep(): void {
  for (const name of readdirSync(RESERVED)) {
    const file = join(RESERVED, name);
    // a draft (`.<pid>-<port>`) may be empty a moment: its name says whose it is
    const owner = name.startsWith('.') ? Number(name.slice(1).split('-')[0]) : ownerOf(file);
    if (!ownerAlive(owner)) rmSync(file, { force: true });
  }
}

/**
 * Reserves `port` for this process across the test processes of the machine: a file naming the
 * process, made under the port's name by a hard link (which fails if the name exists), so that a
 * reservation is never seen without its owner.
 */
function reserve(port: number): boolean {
  const file = join(RESERVED, String(port));
  const draft = join(RESERVED, `.${process.pid}-${port}`);
  writeFileSync(draft, String(process.pid));
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        linkSync(draft, file);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        if (ownerAlive(ownerOf(file))) return false;
        rmSync(file, { force: true }); // left by a process that is gone
      }
    }
    return false;
  } finally {
    rmSync(draft, { force: true });
  }
}

/** Whether a server could listen on `port` now (on every interface, as the service does). */
export async function portIsFree(port: number): Promise<boolean> {
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
  if (!swept) {
    sweep();
    swept = true;
  }
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = FIRST + Math.floor(Math.random() * (LAST - FIRST + 1));
    if (!reserve(port)) continue;
    if (await portIsFree(port)) return port;
  }
  throw new Error(`no free port between ${FIRST} and ${LAST}`);
}
