import { isFormList } from './form-lists.js';
import { applyDecorators } from '@nestjs/common';
import { ApiHideProperty, ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import type { ParamProblem } from '../errors/api-error.js';

/** What a parser returns for a value it refuses; the validator turns it into a parameter problem. */
export class Invalid {
  constructor(readonly problem: Omit<ParamProblem, 'param'>) {}
}

/** Turns one raw request value into the typed value, or {@link Invalid}. `param` is the parameter name. */
export type ParamParser<T = unknown> = (raw: unknown, param: string) => T | Invalid;

export const MISSING = 'missing';
const ORDER = Symbol('param-order');

interface ParamOptions {
  required?: boolean;
  /** OpenAPI description of the schema: type, items, enum, format, default. */
  schema?: ApiPropertyOptions;
  /** Accepted only to be refused with a specific error; not documented. */
  hidden?: boolean;
}

/**
 * One request parameter: its parser (coercion and validation in one function, so every rule lives in
 * one place), whether it is required, and how the OpenAPI document declares it.
 */
export function Param<T>(parse: ParamParser<T>, options: ParamOptions = {}): PropertyDecorator {
  return applyDecorators(
    recordOrder,
    options.hidden ? ApiHideProperty() : ApiProperty({ ...options.schema, required: options.required ?? false } as ApiPropertyOptions),
    // A create DTO redeclares some fields of its update DTO; both transforms then run, so a value
    // that was already refused stays refused.
    // class-transformer hands over a copy of arrays; the parser gets the original when it is a form
    // list, whose mark tells a repeated key from a JSON array (form-lists.ts)
    Transform(({ value, key, obj }: { value: unknown; key: string; obj: Record<string, unknown> }) =>
      value === undefined || value instanceof Invalid ? value : parse(Array.isArray(value) && isFormList(obj[key]) ? obj[key] : value, key),
    ),
    ValidateBy({
      name: 'param',
      validator: {
        validate: (value) => !(value instanceof Invalid),
        defaultMessage: (args) => JSON.stringify((args?.value as Invalid).problem),
      },
    }),
    ...(options.required
      ? [
          ValidateBy({
            name: 'required',
            validator: { validate: (value) => value !== undefined, defaultMessage: () => JSON.stringify({ key: MISSING }) },
          }),
        ]
      : []),
  );
}

const recordOrder: PropertyDecorator = (target, property) => {
  if (!Object.prototype.hasOwnProperty.call(target, ORDER)) Object.defineProperty(target, ORDER, { value: [] });
  const own = (target as never)[ORDER] as string[];
  if (!own.includes(String(property))) own.push(String(property));
};

/** Parameter names of a DTO class in declaration order, inherited ones first. */
export function paramOrder(dtoClass: { prototype: object } | undefined): string[] {
  const chain: object[] = [];
  for (
    let proto = dtoClass?.prototype;
    proto && proto !== Object.prototype;
    proto = (Object.getPrototypeOf(proto) as object | null) ?? undefined
  ) {
    chain.unshift(proto);
  }
  return chain.flatMap((proto) => (Object.prototype.hasOwnProperty.call(proto, ORDER) ? ((proto as never)[ORDER] as string[]) : []));
}
