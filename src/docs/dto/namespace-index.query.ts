import { Param } from '../../common/validation/param.js';
import { anyValue } from '../../common/validation/parsers.js';

export class NamespaceIndexQueryDto {
  /** Namespace to describe; only this API's namespace exists. */
  @Param((raw) => String(raw), { schema: { type: 'string' } })
  namespace?: string;

  /** Accepted and ignored. */
  @Param(anyValue, { schema: { type: 'string', default: 'view' } })
  context?: unknown;
}
