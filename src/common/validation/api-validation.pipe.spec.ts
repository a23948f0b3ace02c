import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { IsString } from 'class-validator';
import { ApiError } from '../errors/api-error.js';
import { ApiValidationPipe, passesParams } from './api-validation.pipe.js';
import { Param } from './param.js';
import { integer, text } from './parsers.js';
import { type Dto, expectSameAsClassValidator } from '../../../test/support/validation.js';

class Plain {
  @Param(text({ max: 50 }))
  name?: string;

  @Param(integer({ min: 1 }), { required: true })
  count: number;
}

/** Redeclares a parameter of its parent as required, as the create DTOs do. */
class Stricter extends Plain {
  @Param(text({ max: 50, nonEmpty: true }), { required: true })
  override name: string;
}

class WithOtherRule {
  @Param(text({ max: 50 }))
  name?: string;

  @IsString()
  note?: string;
}

describe('ApiValidationPipe on DTOs whose rules all come from Param', () => {
  it.each(
    (
      [
        [Plain, { count: 3 }],
        [Plain, { count: 3, name: 'A', stray: 'x' }],
        [Plain, { name: 'A' }],
        [Plain, { count: 0 }],
        [Plain, { count: 'many', name: 5 }],
        [Stricter, { count: 3, name: 'A', stray: 'x' }],
        [Stricter, { count: 3 }],
        [Stricter, { count: 3, name: '' }],
        [Stricter, { name: 'A' }],
      ] as Array<[Dto, object]>
    ).map(([dto, input]) => [dto.name, input, dto] as const),
  )('%s %j: the same instance or the same failure as class-validator alone', async (_name, input, dto) => {
    await expectSameAsClassValidator(dto, input);
  });

  it('leaves a class with any other rule to class-validator, which still strips and checks it', async () => {
    const instance = plainToInstance(WithOtherRule, { name: 'A', note: 'n', stray: 1 }) as unknown as Record<string, unknown>;
    expect(passesParams(WithOtherRule, instance)).toBe(false);
    expect(instance).toHaveProperty('stray');
    const pipe = new ApiValidationPipe();
    expect(await pipe.transform({ name: 'A', note: 'n', stray: 1 }, { type: 'body', metatype: WithOtherRule })).toEqual(
      Object.assign(new WithOtherRule(), { name: 'A', note: 'n' }),
    );
    await expect(pipe.transform({ name: 'A', note: 5 }, { type: 'body', metatype: WithOtherRule })).rejects.toBeInstanceOf(ApiError);
  });
});
