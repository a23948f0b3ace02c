import { readFileSync } from 'node:fs';
import { ConfigError, type Env } from './env-values.js';

/**
 * The settings that hold secrets. Each may be given as `<NAME>_FILE`, the path of a file holding the
 * value (a Docker or Kubernetes secret, a systemd credential), so the secret stays out of the
 * environment that `ps e`, `docker inspect` and crash reports show.
 */
export const SECRET_VARIABLES = [
  'DATABASE_URL',
  'DATABASE_PASSWORD',
  'DATABASE_REPLICA_URLS',
  'ADMIN_PASSWORD',
  'REDIS_URL',
  'TEC_PASSWORD',
  'METRICS_TOKEN',
] as const;

const isSet = (value: string | undefined) => value !== undefined && value.trim() !== '';

/**
 * The value of one secret setting: `<NAME>` itself, or the contents of the file `<NAME>_FILE` names,
 * without its trailing line break (an editor's or `echo`'s). Both set, or a file that cannot be read,
 * is a {@link ConfigError} naming the variable.
 */
export function secretValue(env: Env, name: string): string | undefined {
  const path = env[`${name}_FILE`];
  if (!isSet(path)) return env[name];
  if (isSet(env[name])) throw new ConfigError(`${name}_FILE`, `is set together with ${name}: give the value one way, not both`);
  try {
    return readFileSync((path as string).trim(), 'utf8').replace(/(\r?\n)+$/, '');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new ConfigError(`${name}_FILE`, `names a file that cannot be read (${reason}: ${(path as string).trim()})`);
  }
}

/** The environment with every `<NAME>_FILE` of {@link SECRET_VARIABLES} replaced by the value it holds. */
export function withSecretFiles(env: Env): Env {
  const resolved: Env = { ...env };
  for (const name of SECRET_VARIABLES) {
    resolved[name] = secretValue(env, name);
    delete resolved[`${name}_FILE`];
  }
  return resolved;
}
