import { Param } from '../../common/validation/param.js';
import { anyValue } from '../../common/validation/parsers.js';
import { Doc } from '../../common/validation/doc.js';

export class NamespaceIndexQueryDto {
  @Doc("Namespace to describe; only this API's namespace exists.")
  @Param((raw) => String(raw), { schema: { type: 'string' } })
  namespace?: string;

  @Doc('Accepted and ignored.')
  @Param(anyValue, { schema: { type: 'string', default: 'view' } })
  context?: unknown;
}
