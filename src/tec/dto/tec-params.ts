import { parseDateInput } from '../../common/dates/parse-date.js';
import { Invalid, Param, type ParamParser } from '../../common/validation/param.js';
import { boolean, idList, integer, lastValue, positiveInteger, stringList, text } from '../../common/validation/parsers.js';

/** The detail codes the reference adds to `rest_invalid_param` for its own argument types. */
export const TecDetail = {
  positiveInteger: 'tec_rest_invalid_positive_integer_argument',
  dateTime: 'tec_rest_invalid_date_time_argument',
  uri: 'tec_rest_invalid_uri_argument',
  email: 'tec_rest_invalid_email_argument',
} as const;

const STATUSES = ['publish', 'pending', 'draft', 'future', 'private'];

const positive: ParamParser<number> = (raw, param) => {
  const value = positiveInteger(raw, param);
  return value instanceof Invalid
    ? new Invalid({ key: 'positive_integer', detailsCode: TecDetail.positiveInteger, detailsForm: 'argument' })
    : value;
};

/** A date or date-time the list filters compare in UTC, as a UTC wall time. */
const utcMoment: ParamParser<string> = (raw) => {
  const value = lastValue(raw);
  const parsed = typeof value === 'string' && value.trim() !== '' ? parseDateInput(value, 'UTC', new Date()) : null;
  return parsed ? parsed.utc : new Invalid({ key: 'date', detailsCode: TecDetail.dateTime, detailsForm: 'argument' });
};

/** `status` of the lists: one or more of the five statuses (`trash` and `any` are refused). */
const statusList: ParamParser<string[]> = (raw, param) => {
  const items = stringList(raw, param);
  if (items instanceof Invalid) return items;
  return items.length > 0 && items.every((item) => STATUSES.includes(item)) ? items : new Invalid({ key: 'status' });
};

/** `order`: exactly `ASC` or `DESC`, upper case as the reference declares it. */
const sortDirection: ParamParser<'ASC' | 'DESC'> = (raw) => {
  const value = lastValue(raw);
  return value === 'ASC' || value === 'DESC' ? value : new Invalid({ key: 'one_of', args: { values: 'ASC, DESC' } });
};

function exactly<T extends string>(values: readonly T[]): ParamParser<T> {
  return (raw) => {
    const value = lastValue(raw);
    return typeof value === 'string' && (values as readonly string[]).includes(value)
      ? (value as T)
      : new Invalid({ key: 'one_of', args: { values: values.join(', ') } });
  };
}

export const TecPositive = () => Param(positive, { schema: { type: 'integer' } });
export const TecMoment = () => Param(utcMoment, { schema: { type: 'string', format: 'date-time' } });
export const TecIds = () => Param(idList, { schema: { type: 'array', items: { type: 'integer' } } });
export const TecFlag = () => Param(boolean, { schema: { type: 'boolean' } });
export const TecStatuses = () => Param(statusList, { schema: { type: 'array', items: { type: 'string' } } });
export const TecSearch = () => Param(text({ max: 500 }), { schema: { type: 'string' } });
export const TecOrder = () => Param(sortDirection, { schema: { type: 'string', enum: ['ASC', 'DESC'] } });
export const TecOneOf = <T extends string>(values: readonly T[]) =>
  Param(exactly(values), { schema: { type: 'string', enum: [...values] } });
export const TecInteger = () => Param(integer({ min: 1 }), { schema: { type: 'integer' } });
export const TecPassword = () => Param(text({ max: 255 }), { schema: { type: 'string' } });
