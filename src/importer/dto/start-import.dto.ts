import { Doc } from '../../common/validation/doc.js';
import { Param } from '../../common/validation/param.js';
import { boolean, dateText, oneOf, text, websiteUrl } from '../../common/validation/parsers.js';
import { CONFLICT_POLICIES, type ConflictPolicy } from '../import-outcome.js';

/** `POST /imports`: the options of `npm run cli -- import:tec`, as body fields. */
export class StartImportDto {
  @Doc('The site to import from: its address, its REST root (…/wp-json) or its tribe/events/v1 namespace.', {
    example: 'https://example.org',
  })
  @Param(websiteUrl, { required: true, schema: { type: 'string', format: 'uri' } })
  from: string;

  @Doc('Login at the source for HTTP Basic authentication; with it, unpublished records the login may read are imported too.')
  @Param(text({ max: 255, nonEmpty: true }), { schema: { type: 'string' } })
  user?: string;

  @Doc('Application password of user at the source. It is used for this job only and never stored.')
  @Param(text({ max: 255, nonEmpty: true }), { schema: { type: 'string' } })
  password?: string;

  @Doc('Read everything and report what would change, without writing.', { example: false })
  @Param(boolean, { schema: { type: 'boolean', default: false } })
  dry_run?: boolean;

  @Doc('Only records the source modified since this date (any date form of the API; site time zone unless it says otherwise).')
  @Param(dateText, { schema: { type: 'string' } })
  since?: string;

  @Doc('Login of the local user that owns the imported records (default: the first administrator).')
  @Param(text({ max: 60, nonEmpty: true }), { schema: { type: 'string' } })
  author?: string;

  @Doc('What happens to records edited here since the last import: overwrite them, keep the local edit, or skip them and report them.')
  @Param(oneOf(CONFLICT_POLICIES), { schema: { type: 'string', enum: [...CONFLICT_POLICIES], default: 'skip' } })
  on_conflict?: ConflictPolicy;
}
