import { databaseKindFromEnv } from '../../config/app-config.js';

/** Descriptions hold up to 65,535 characters: MySQL's TEXT counts bytes, so it needs MEDIUMTEXT. */
export const LONG_TEXT = databaseKindFromEnv() === 'mysql' ? 'mediumtext' : 'text';

/** Ids of rows that many writes add (the change log): 64 bits on MySQL; SQLite's INTEGER already is. */
export const BIG_ID = databaseKindFromEnv() === 'mysql' ? 'bigint' : 'integer';
