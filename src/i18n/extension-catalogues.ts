import type { DynamicModule, Type } from '@nestjs/common';

const CATALOGUES = Symbol('extension-catalogues');

/**
 * Declares the folder of an extension module's translations (docs/EXTENDING.md): one sub-folder per
 * language with the same namespaces as `src/i18n/<lang>/` (`errors.json` for its error codes,
 * `params.json` for its parameter messages, `openapi.json` for the prose of its routes). The texts
 * are added to the core's; an extension may add keys, never replace one.
 */
export function OwnsCatalogues(dir: string): ClassDecorator {
  return (target) => Reflect.defineMetadata(CATALOGUES, dir, target);
}

/** The catalogue folders declared by `modules` (with `@OwnsCatalogues`), in module order. */
export function extensionCatalogues(modules: ReadonlyArray<Type | DynamicModule>): string[] {
  return modules
    .map((module) => Reflect.getMetadata(CATALOGUES, 'module' in module ? module.module : module) as string | undefined)
    .filter((dir): dir is string => dir !== undefined);
}
