import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import mysql from 'mysql2/promise';

/** What `scripts/scale-env.sh start` wrote: where the load balancer, the apps and the servers listen. */
export interface ScaleEnv {
  proxy: string;
  apps: string[];
  admin: { login: string; password: string };
  primary: { socket: string; url: string };
  replica: { socket: string; url: string; pidFile: string };
  /** The Redis the apps share cached answers through, or '' when none answered at start. */
  redis: string;
  maxLagMs: number;
  waitMs: number;
  script: string;
  /** The settings the script was started with, so that `replica-start` finds this topology and no other. */
  scriptEnv: Record<string, string>;
}

export const API = '/wp-json/tribe/events/v1';

export function scaleEnv(): ScaleEnv {
  const file = process.env.SCALE_ENV ?? '/tmp/calendar-scale/env.json';
  return JSON.parse(readFileSync(file, 'utf8')) as ScaleEnv;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  at: number;
}

export async function call(
  base: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const response = await fetch(`${base}${API}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    at: Date.now(),
  };
}

export function basicAuth(env: ScaleEnv): Record<string, string> {
  return { Authorization: `Basic ${Buffer.from(`${env.admin.login}:${env.admin.password}`).toString('base64')}` };
}

/** Runs statements as root on the replica's server (its own socket). */
export async function onReplicaServer(env: ScaleEnv, sql: string): Promise<unknown> {
  const connection = await mysql.createConnection({ socketPath: env.replica.socket, user: 'root', multipleStatements: true });
  try {
    const [rows] = await connection.query(sql);
    return rows;
  } finally {
    await connection.end();
  }
}

/** Delays the replica's applying by `seconds` (MariaDB's `MASTER_DELAY`; 0 turns it off). */
export async function setReplicaDelay(env: ScaleEnv, seconds: number): Promise<void> {
  await onReplicaServer(env, `STOP SLAVE; CHANGE MASTER TO MASTER_DELAY = ${seconds}; START SLAVE`);
}

/** Waits until the replica has applied everything the primary has written so far. */
export async function replicaCaughtUp(env: ScaleEnv, seconds = 30): Promise<void> {
  const primary = await mysql.createConnection({ socketPath: env.primary.socket, user: 'root' });
  try {
    const [rows] = await primary.query('SELECT @@GLOBAL.gtid_binlog_pos AS position');
    const position = (rows as Array<{ position: string }>)[0].position;
    const reached = (await onReplicaServer(env, `SELECT MASTER_GTID_WAIT('${position}', ${seconds}) AS reached`)) as Array<{
      reached: number;
    }>;
    if (Number(reached[0].reached) !== 0) throw new Error(`the replica did not reach ${position} within ${seconds} s`);
  } finally {
    await primary.end();
  }
}

export function runScript(env: ScaleEnv, command: string): void {
  execFileSync('bash', [env.script, command], { stdio: 'inherit', timeout: 120_000, env: { ...process.env, ...env.scriptEnv } });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
