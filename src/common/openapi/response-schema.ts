import type { Type } from '@nestjs/common';
import { ApiSchema } from '@nestjs/swagger';

const REFERENCED_SCHEMAS = Symbol('openapi:referenced-schemas');

/** A `oneOf` alternative: an array that is always empty (`[]` where the contract has no object). */
export const EMPTY_ARRAY_SCHEMA = { type: 'array', maxItems: 0, items: {} } as const;

/**
 * Names the OpenAPI schema of a response class and lists the classes its `$ref`s point to: a `$ref`
 * written with `getSchemaPath` does not make Nest document the class it names, so a route documented
 * with one class (see `RouteDoc`) documents everything its answer contains through this list.
 */
export function ResponseSchema(name: string, ...referenced: Type[]): ClassDecorator {
  return (target) => {
    ApiSchema({ name })(target);
    Reflect.defineMetadata(REFERENCED_SCHEMAS, referenced, target);
  };
}

/** The class and every class it references, transitively, each once. */
export function schemaClosure(root: Type): Type[] {
  const found = new Set<Type>();
  const visit = (type: Type) => {
    if (found.has(type)) return;
    found.add(type);
    for (const referenced of (Reflect.getMetadata(REFERENCED_SCHEMAS, type) as Type[] | undefined) ?? []) visit(referenced);
  };
  visit(root);
  return [...found];
}
