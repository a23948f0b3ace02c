import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate, ValidationTypes, type ValidationError } from 'class-validator';
import { ApiError, PROBLEMS, type ParamProblem } from '../errors/api-error.js';
import { Invalid, MISSING, paramOrder } from './param.js';
import { ErrorCode } from '../errors/error-codes.js';

const COLLECTS = Symbol('collects-problems');

/**
 * Marks a DTO whose service checks more parameters itself (dates, existence of ids...): invalid
 * values are then handed to the service, which reports them together with its own findings in one
 * answer (spec §7.7), instead of the pipe answering first.
 */
export function CollectsProblems(): ClassDecorator {
  return (target) => Reflect.defineMetadata(COLLECTS, true, target);
}

/**
 * Validates DTOs built with `Param`: missing required parameters first (nothing else is checked
 * then), otherwise every invalid parameter in declaration order (spec §7.7).
 */
@Injectable()
export class ApiValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype } = metadata;
    if (metadata.type === 'custom' || !metatype || [String, Number, Boolean, Array, Object].includes(metatype as never)) return value;
    const instance = plainToInstance(metatype, value ?? {}, { enableImplicitConversion: false }) as Record<string | symbol, unknown>;
    if (passesParams(metatype, instance)) return instance;
    const errors = await validate(instance, { whitelist: true, forbidUnknownValues: false });
    if (errors.length === 0) return instance;
    const error = toApiError(errors);
    if (error.code === ErrorCode.MissingParam || !Reflect.getMetadata(COLLECTS, metatype)) throw error;
    for (const failed of errors) delete instance[failed.property];
    instance[PROBLEMS] = error.extra.problems;
    return instance;
  }
}

/**
 * What validating a DTO whose every rule comes from `Param` amounts to: the properties it declares
 * (the others are stripped, as the `whitelist` option strips them), and of each, whether it is
 * required. Null for a class with any other rule.
 */
interface ParamRules {
  declared: ReadonlySet<string>;
  params: ReadonlyArray<{ property: string; required: boolean }>;
}

const rulesOfClass = new WeakMap<object, ParamRules | null>();

function paramRules(metatype: new (...args: never[]) => unknown): ParamRules | null {
  let rules = rulesOfClass.get(metatype);
  if (rules !== undefined) return rules;
  const recorded = new Set(paramOrder(metatype));
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(metatype, '', false, false);
  const required = new Map<string, boolean>();
  rules = null;
  // only the two rules `Param` adds, unconditional and on the value itself, on properties `Param` recorded
  const ours = metadatas.every(
    (metadata) =>
      metadata.type === ValidationTypes.CUSTOM_VALIDATION &&
      (metadata.name === 'param' || metadata.name === 'required') &&
      recorded.has(metadata.propertyName) &&
      !metadata.each &&
      !metadata.validateIf &&
      !(metadata.groups?.length > 0) &&
      metadata.always === undefined,
  );
  if (ours && metadatas.length > 0) {
    for (const metadata of metadatas)
      required.set(metadata.propertyName, (required.get(metadata.propertyName) ?? false) || metadata.name === 'required');
    rules = {
      declared: new Set(required.keys()),
      params: [...required].map(([property, isRequired]) => ({ property, required: isRequired })),
    };
  }
  rulesOfClass.set(metatype, rules);
  return rules;
}

/**
 * The pipe's check of a DTO whose rules all come from `Param`, without class-validator walking its
 * metadata for every request: true when every parameter parsed (no {@link Invalid}) and every
 * required one is there, the undeclared properties then stripped, as `validate` with `whitelist`
 * leaves such an instance. False, with the instance untouched, when there is anything to report or
 * the class has other rules: `validate` then runs as usual and words the problems.
 */
export function passesParams(metatype: new (...args: never[]) => unknown, instance: Record<string | symbol, unknown>): boolean {
  const rules = paramRules(metatype);
  if (!rules) return false;
  for (const { property, required } of rules.params) {
    const value = instance[property];
    if (value instanceof Invalid || (required && value === undefined)) return false;
  }
  for (const key of Object.keys(instance)) if (!rules.declared.has(key)) delete instance[key];
  return true;
}

export function apiValidationPipe(): ApiValidationPipe {
  return new ApiValidationPipe();
}

export function toApiError(errors: ValidationError[]): ApiError {
  const order = paramOrder(errors[0]?.target?.constructor);
  const rank = (name: string) => (order.indexOf(name) === -1 ? order.length : order.indexOf(name));
  const sorted = [...errors].sort((a, b) => rank(a.property) - rank(b.property));
  const problems: ParamProblem[] = sorted.map((error) => {
    const constraints = error.constraints ?? {};
    const message = constraints.required ?? constraints.param ?? Object.values(constraints)[0];
    let problem: Omit<ParamProblem, 'param'> = { key: 'invalid_value' };
    try {
      problem = message ? (JSON.parse(message) as Omit<ParamProblem, 'param'>) : problem;
    } catch {
      // a constraint that is not one of ours: keep the generic message
    }
    return { param: error.property, ...problem };
  });
  const missing = problems.filter((problem) => problem.key === MISSING).map((problem) => problem.param);
  return missing.length > 0 ? ApiError.missingParams(missing) : ApiError.invalidParams(problems);
}
