import 'reflect-metadata';
import { appendFileSync } from 'node:fs';
import { serve } from '../../src/lifecycle.js';
import { OneWayInModule, Sightings } from './one-way-in-extension.js';

/**
 * The server entry of docs/EXTENDING.md with the extension of test/one-way-in.e2e-spec.ts: each
 * sighting is appended to `SIGHTINGS_FILE` (`<by> <METHOD> <path>`) before the request goes on;
 * `READS_NEED_KEY=1` makes the guard ask reads for `X-Key: k`. The test compiles it beside dist/src.
 */
const file = process.env.SIGHTINGS_FILE;
if (!file) throw new Error('SIGHTINGS_FILE is not set');
const sightings = new Sightings((by, line) => appendFileSync(file, `${by} ${line}\n`));
sightings.readsNeedKey = process.env.READS_NEED_KEY === '1';
await serve({ modules: [OneWayInModule.with(sightings)] });
