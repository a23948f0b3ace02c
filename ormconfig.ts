import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { readConfig } from './src/config/app-config.js';
import { resolveDataSourceOptions } from './src/database/data-source-options.js';

/** The data source of the TypeORM command line (`npm run migration:run`), built from the app's config. */
export default new DataSource(await resolveDataSourceOptions(readConfig().database));
