import type { DynamicModule, Type } from '@nestjs/common';
import type { MigrationInterface } from 'typeorm';

/** What an extension module stores: its entities and the migrations that create their tables. */
export interface ExtensionTables {
  entities?: Array<new () => object>;
  migrations?: Array<new () => MigrationInterface>;
}

const TABLES = Symbol('extension-tables');

/**
 * Declares the tables of an extension module (docs/EXTENDING.md). `AppModule.forRoot` adds its
 * entities and migrations to the one data source, so the migrations run at start with the core's,
 * in timestamp order, recorded in the same `schema_migrations` table.
 */
export function OwnsTables(tables: ExtensionTables): ClassDecorator {
  return (target) => Reflect.defineMetadata(TABLES, tables, target);
}

/** The entities and migrations declared by `modules` (with `@OwnsTables`), in module order. */
export function extensionTables(modules: ReadonlyArray<Type | DynamicModule>): Required<ExtensionTables> {
  const declared = modules.map(
    (module) => Reflect.getMetadata(TABLES, 'module' in module ? module.module : module) as ExtensionTables | undefined,
  );
  return {
    entities: declared.flatMap((tables) => tables?.entities ?? []),
    migrations: declared.flatMap((tables) => tables?.migrations ?? []),
  };
}
