import { Param } from '../../common/validation/param.js';
import { text } from '../../common/validation/parsers.js';

export const TERM_NAME_MAX = 200;
export const TERM_DESCRIPTION_MAX = 65535;
export const SLUG_INPUT_MAX = 200;

export const termNameParam = (required: boolean) =>
  Param(text({ max: TERM_NAME_MAX, nonEmpty: true }), { required, schema: { type: 'string' } });
export const termDescriptionParam = () => Param(text({ max: TERM_DESCRIPTION_MAX, nonEmpty: true }), { schema: { type: 'string' } });
export const termSlugWriteParam = () => Param(text({ max: SLUG_INPUT_MAX, nonEmpty: true }), { schema: { type: 'string' } });

export interface TermWriteFields {
  name?: string;
  description?: string;
  slug?: string;
  parent?: unknown;
}
