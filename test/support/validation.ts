import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ApiError } from '../../src/common/errors/api-error.js';
import { ApiValidationPipe, passesParams } from '../../src/common/validation/api-validation.pipe.js';

export type Dto = new () => object;

/** What class-validator alone makes of `input`, as the pipe asks it: the instance it leaves, or the properties it reports. */
export async function byClassValidator(dto: Dto, input: object) {
  const instance = plainToInstance(dto, input, { enableImplicitConversion: false });
  const errors = await validate(instance, { whitelist: true, forbidUnknownValues: false });
  return errors.length === 0 ? { instance } : { failed: errors.map((error) => error.property).sort() };
}

/**
 * Asserts that the pipe's check without class-validator (`passesParams`) agrees with class-validator
 * on `input`: the same instance when it passes; when it fails, the instance untouched, and the pipe's
 * answer the one class-validator's problems give.
 */
export async function expectSameAsClassValidator(dto: Dto, input: object): Promise<void> {
  const expected = await byClassValidator(dto, input);
  const instance = plainToInstance(dto, input, { enableImplicitConversion: false }) as Record<string, unknown>;
  const before = { ...instance };
  expect(passesParams(dto, instance)).toBe('instance' in expected);
  if ('instance' in expected) expect({ ...instance }).toEqual({ ...expected.instance });
  else expect({ ...instance }).toEqual(before);
  const outcome = await new ApiValidationPipe().transform(input, { type: 'body', metatype: dto }).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if ('instance' in expected) expect({ ...(outcome as { value: object }).value }).toEqual({ ...expected.instance });
  else if ('error' in outcome) expect(outcome.error).toBeInstanceOf(ApiError);
  // a DTO that collects problems hands them on, the failed properties removed
  else for (const property of expected.failed) expect(outcome.value).not.toHaveProperty(property);
}
