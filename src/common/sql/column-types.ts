import { databaseKindFromEnv } from '../../config/app-config.js';

/** Descriptions hold up to 65,535 characters: MySQL's TEXT counts bytes, so it needs MEDIUMTEXT. */
export const LONG_TEXT = databaseKindFromEnv() === 'mysql' ? 'mediumtext' : 'text';
