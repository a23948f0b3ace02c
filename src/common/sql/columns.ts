import type { ValueTransformer } from 'typeorm';

/**
 * Date-time columns hold UTC instants, or wall-clock times of an event's own zone written as if they
 * were UTC. The API works with `YYYY-MM-DD HH:MM:SS` strings; the drivers work with Date objects.
 */
export function wallToDate(wall: string): Date {
  return new Date(`${wall.replace(' ', 'T')}Z`);
}

export function dateToWall(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

export const wallTimeTransformer: ValueTransformer = {
  to: (value: string | null | undefined) => (typeof value === 'string' ? wallToDate(value) : value),
  from: (value: Date | string | null) =>
    value === null || value === undefined ? value : dateToWall(value instanceof Date ? value : new Date(value)),
};

/** JSON kept in a text column, portable across MySQL and SQLite. */
export const jsonTextTransformer: ValueTransformer = {
  to: (value: unknown) => (value === undefined ? undefined : value === null ? null : JSON.stringify(value)),
  from: (value: string | null): unknown => (value === null || value === undefined ? null : JSON.parse(value)),
};

/** Booleans come back as 0/1 from raw queries on both drivers. */
export const booleanTransformer: ValueTransformer = {
  to: (value: boolean | undefined) => value,
  from: (value: unknown) => value === true || value === 1 || value === '1',
};
