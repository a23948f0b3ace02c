import { InitialSchema1763700000000 } from './1763700000000-initial-schema.js';

/** Every migration, oldest first; applied at start-up and by `npm run migration:run`. */
export const MIGRATIONS = [InitialSchema1763700000000];
