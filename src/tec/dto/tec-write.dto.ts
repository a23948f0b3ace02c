import { Invalid, Param, type ParamParser } from '../../common/validation/param.js';
import { anyValue, boolean, integer, lastValue, typeErrorFor } from '../../common/validation/parsers.js';
import { EVENT_DATE_PATTERN } from '../tec-args.js';
import { TecDetail } from './tec-params.js';

/**
 * The bodies of the `tec/v1` writes, checked against the types the reference declares (its
 * `rest_invalid_param` answers with TEC's detail codes); the service then hands them, renamed, to
 * the v1 writes, whose own rules (required fields, known ids, statuses, permissions) apply.
 */

const STATUSES = ['publish', 'pending', 'draft', 'future', 'private'];
const EVENT_DATE = new RegExp(EVENT_DATE_PATTERN);

const string: ParamParser<string> = (raw, param) => (typeof raw === 'string' ? raw : typeErrorFor('string', param));

const ids: ParamParser<number[]> = (raw) => {
  const list = Array.isArray(raw) ? raw : typeof raw === 'number' || typeof raw === 'string' ? String(raw).split(',') : null;
  const parsed = list?.map((item) =>
    typeof item === 'number' || (typeof item === 'string' && /^\d+$/.test(item.trim())) ? Number(item) : NaN,
  );
  return parsed && parsed.every((id) => Number.isSafeInteger(id) && id >= 0)
    ? parsed
    : new Invalid({ key: 'positive_integer', detailsCode: TecDetail.positiveInteger, detailsForm: 'argument' });
};

const eventDate: ParamParser<string> = (raw) =>
  typeof raw === 'string' && EVENT_DATE.test(raw)
    ? raw
    : new Invalid({ key: 'date', detailsCode: TecDetail.dateTime, detailsForm: 'argument' });

const status: ParamParser<string> = (raw) => {
  const value = lastValue(raw);
  return typeof value === 'string' && STATUSES.includes(value) ? value : new Invalid({ key: 'status' });
};

const uri: ParamParser<string> = (raw) => {
  if (raw === '') return '';
  try {
    if (typeof raw === 'string' && /^https?:$/.test(new URL(raw).protocol)) return raw;
  } catch {
    // not a URL
  }
  return new Invalid({ key: 'url', detailsCode: TecDetail.uri, detailsForm: 'argument' });
};

const email: ParamParser<string> = (raw) =>
  raw === '' || (typeof raw === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(raw))
    ? raw
    : new Invalid({ key: 'invalid_value', detailsCode: TecDetail.email, detailsForm: 'argument' });

const Text = () => Param(string, { schema: { type: 'string' } });
const Ids = () => Param(ids, { schema: { type: 'array', items: { type: 'integer' } } });
const Flag = () => Param(boolean, { schema: { type: 'boolean' } });
const Id = () => Param(integer({ min: 0 }), { schema: { type: 'integer' } });
/** Arguments of WordPress core the reference declares and ignores here: accepted, not stored. */
const Ignored = () => Param(anyValue, { schema: {} });

/** What every `tec/v1` write may send (WordPress core's post fields). */
export class TecPostWriteDto {
  @Text()
  date?: string;

  @Text()
  date_gmt?: string;

  @Text()
  slug?: string;

  @Param(status, { schema: { type: 'string', enum: STATUSES } })
  status?: string;

  @Text()
  title?: string;

  @Text()
  content?: string;

  @Text()
  excerpt?: string;

  @Id()
  author?: number;

  @Id()
  featured_media?: number;

  @Flag()
  sticky?: boolean;

  @Ids()
  tags?: number[];

  @Ignored()
  comment_status?: unknown;

  @Ignored()
  ping_status?: unknown;

  @Ignored()
  format?: unknown;

  @Ignored()
  template?: unknown;
}

export class TecEventWriteDto extends TecPostWriteDto {
  @Ids()
  tribe_events_cat?: number[];

  @Param(eventDate, { schema: { type: 'string' } })
  start_date?: string;

  @Param(eventDate, { schema: { type: 'string' } })
  start_date_utc?: string;

  @Param(eventDate, { schema: { type: 'string' } })
  end_date?: string;

  @Param(eventDate, { schema: { type: 'string' } })
  end_date_utc?: string;

  @Text()
  timezone?: string;

  @Id()
  duration?: number;

  @Flag()
  all_day?: boolean;

  @Flag()
  featured?: boolean;

  @Text()
  cost?: string;

  @Ids()
  organizers?: number[];

  @Ids()
  venues?: number[];
}

export class TecVenueWriteDto extends TecPostWriteDto {
  @Text()
  address?: string;

  @Text()
  country?: string;

  @Text()
  city?: string;

  @Text()
  state_province?: string;

  @Text()
  state?: string;

  @Text()
  province?: string;

  @Text()
  zip?: string;

  @Text()
  phone?: string;

  @Param(uri, { schema: { type: 'string', format: 'uri' } })
  website?: string;
}

export class TecOrganizerWriteDto extends TecPostWriteDto {
  @Text()
  phone?: string;

  @Param(uri, { schema: { type: 'string', format: 'uri' } })
  website?: string;

  @Param(email, { schema: { type: 'string', format: 'email' } })
  email?: string;
}

/** `?force=true` of a delete. */
export class TecDeleteQueryDto {
  @Flag()
  force?: boolean;
}
