import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ApiError, type ParamProblem } from '../errors/api-error.js';
import { MISSING, paramOrder } from './param.js';

/**
 * Validates DTOs built with {@link Param}: missing required parameters first (nothing else is checked
 * then), otherwise every invalid parameter in declaration order (spec §7.7).
 */
export function apiValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: false,
    validateCustomDecorators: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => toApiError(errors),
  });
}

export function toApiError(errors: ValidationError[]): ApiError {
  const order = paramOrder(errors[0]?.target?.constructor as { prototype: object } | undefined);
  const rank = (name: string) => (order.indexOf(name) === -1 ? order.length : order.indexOf(name));
  const sorted = [...errors].sort((a, b) => rank(a.property) - rank(b.property));
  const problems: ParamProblem[] = sorted.map((error) => {
    const constraints = error.constraints ?? {};
    const message = constraints.required ?? constraints.param ?? Object.values(constraints)[0];
    let problem: Omit<ParamProblem, 'param'> = { key: 'invalid_value' };
    try {
      problem = message ? JSON.parse(message) : problem;
    } catch {
      // a constraint that is not one of ours: keep the generic message
    }
    return { param: error.property, ...problem };
  });
  const missing = problems.filter((problem) => problem.key === MISSING).map((problem) => problem.param);
  return missing.length > 0 ? ApiError.missingParams(missing) : ApiError.invalidParams(problems);
}
