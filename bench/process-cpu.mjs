// CPU time of the server and of MariaDB from /proc, for the bench scripts that report CPU per request.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** CPU time (ms) a process has used so far, from /proc/<pid>/stat. */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The process id of the local MariaDB server, or null. */
export function mariadbPid() {
  try {
    return execFileSync('pgrep', ['-x', 'mariadbd'], { encoding: 'utf8' }).split('\n')[0] || null;
  } catch {
    return null;
  }
}

/**
 * Starts counting the CPU of `serverPid` (or of no server) and of MariaDB; the function returned
 * says how much each used per request once `done` requests have run ("-" for a process not watched).
 */
export function cpuPerRequest(serverPid) {
  const mariadb = mariadbPid();
  const before = { server: serverPid ? cpuMs(serverPid) : 0, mariadb: mariadb ? cpuMs(mariadb) : 0 };
  const per = (pid, start, done) => (pid && done > 0 ? ((cpuMs(pid) - start) / done).toFixed(2) : '-');
  return (done) => `CPU per request: server ${per(serverPid, before.server, done)} ms, MariaDB ${per(mariadb, before.mariadb, done)} ms`;
}
