import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import { ApiError, PROBLEMS, type ParamProblem } from '../errors/api-error.js';
import { MISSING, paramOrder } from './param.js';
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
    const errors = await validate(instance, { whitelist: true, forbidUnknownValues: false });
    if (errors.length === 0) return instance;
    const error = toApiError(errors);
    if (error.code === ErrorCode.MissingParam || !Reflect.getMetadata(COLLECTS, metatype)) throw error;
    for (const failed of errors) delete instance[failed.property];
    instance[PROBLEMS] = error.extra.problems;
    return instance;
  }
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
