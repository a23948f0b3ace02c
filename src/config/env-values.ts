export type Env = Record<string, string | undefined>;

/** A configuration value that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
  }
}

/** A variable's value, trimmed; undefined when it is unset or blank. */
export type EnvReader = (name: string) => string | undefined;

export function envReader(env: Env): EnvReader {
  return (name) => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
}

export function integer(raw: string, name: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number between ${min} and ${max}`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be a whole number between ${min} and ${max}`);
  return value;
}

export function decimal(raw: string, name: string, min: number, max: number): number {
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || value < min || value > max) throw new ConfigError(name, `must be a number between ${min} and ${max}`);
  return value;
}

export function flag(raw: string, name: string): boolean {
  const value = raw.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(name, 'must be true or false');
}
