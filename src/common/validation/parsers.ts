import { isFormList } from './form-lists.js';
import { Invalid, type ParamParser } from './param.js';
import { DetailsCode } from '../errors/error-codes.js';

/** Parsers for the value types of spec §7.3. Each returns the typed value or {@link Invalid}. */

export const TRUTHY_WORDS = ['1', 'true', 'yes', 'y', 'on', 'enable', 'enabled'];
export const FALSY_WORDS = ['0', 'false', 'no', 'n', 'off', 'disable', 'disabled', ''];
export const MAX_LIST_ITEMS = 100;

export const typeErrorFor = (key: string, param: string) => new Invalid({ key, args: { param }, detailsCode: DetailsCode.InvalidType });
const typeError = typeErrorFor;

/**
 * For parameters that are not lists, a repeated key of a form or query string means the last value
 * wins (spec §7.2); a JSON array stays an array, which such a parameter refuses (spec §7.3).
 */
export function lastValue(raw: unknown): unknown {
  return isFormList(raw) && raw.length > 0 ? raw[raw.length - 1] : raw;
}

/** `page`, `per_page`: digits only, at least 1. */
export const positiveInteger: ParamParser<number> = (raw) => {
  const value = lastValue(raw);
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\d+$/.test(text.trim()) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    return new Invalid({ key: 'positive_integer' });
  }
  return Number(text);
};

export function integer(options: { min?: number; max?: number } = {}): ParamParser<number> {
  return (raw, param) => {
    const value = lastValue(raw);
    let result: number;
    if (typeof value === 'number' && Number.isInteger(value)) result = value;
    else if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) result = Number(value.trim());
    else return typeError('integer', param);
    if (!Number.isSafeInteger(result)) return typeError('integer', param);
    if ((options.min !== undefined && result < options.min) || (options.max !== undefined && result > options.max)) {
      return new Invalid({ key: 'out_of_range', args: { min: options.min ?? '', max: options.max ?? '' } });
    }
    return result;
  };
}

/** Declared type boolean: JSON booleans, JSON 1/0, and the strings true/false/1/0. */
export const boolean: ParamParser<boolean> = (raw, param) => {
  const value = lastValue(raw);
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (word === 'true' || word === '1') return true;
    if (word === 'false' || word === '0') return false;
  }
  return typeError('boolean', param);
};

/** Truthy-word flags (spec §1, §7.3): strict ones refuse unknown words, lenient ones read them as false. */
export function truthyWord(strict: boolean): ParamParser<boolean> {
  return (raw, param) => {
    const value = lastValue(raw);
    if (typeof value === 'boolean') return value;
    if (value === null && !strict) return false;
    const word = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim().toLowerCase() : undefined;
    if (word !== undefined && TRUTHY_WORDS.includes(word)) return true;
    if (word !== undefined && FALSY_WORDS.includes(word)) return false;
    return strict ? typeError('boolean', param) : false;
  };
}

export function number(options: { min?: number; max?: number } = {}): ParamParser<number> {
  return (raw, param) => {
    const value = lastValue(raw);
    let result: number;
    if (typeof value === 'number' && Number.isFinite(value)) result = value;
    else if (typeof value === 'string' && /^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/.test(value)) result = Number(value);
    else return typeError('number', param);
    if ((options.min !== undefined && result < options.min) || (options.max !== undefined && result > options.max)) {
      return new Invalid({ key: 'out_of_range', args: { min: options.min ?? '', max: options.max ?? '' } });
    }
    return result;
  };
}

export interface TextOptions {
  max: number;
  /** `""` and null are refused (required text, slugs, search...); otherwise they mean "clear" and become `""`. */
  nonEmpty?: boolean;
}

/** A string, trimmed, within `max` characters. */
export function text(options: TextOptions): ParamParser<string> {
  return (raw, param) => {
    const value = lastValue(raw);
    if (value === null || value === undefined) return options.nonEmpty ? new Invalid({ key: 'not_empty' }) : '';
    // JSON numbers, booleans, objects and arrays are not text (spec §7.3)
    if (typeof value !== 'string') return typeError('string', param);
    const result = value.trim();
    if (options.nonEmpty && result === '') return new Invalid({ key: 'not_empty' });
    if ([...result].length > options.max) return new Invalid({ key: 'too_long', args: { max: options.max } });
    return result;
  };
}

/** One of a closed set of words, case-insensitive; the lower-cased word is kept. */
export function oneOf<T extends string>(values: readonly T[]): ParamParser<T> {
  return (raw, param) => {
    const value = lastValue(raw);
    if (value !== null && value !== undefined && typeof value !== 'string') return typeError('string', param);
    const word = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
    if (word === undefined || !(values as readonly string[]).includes(word)) {
      return new Invalid({ key: 'one_of', args: { values: values.join(', ') } });
    }
    return word as T;
  };
}

/**
 * A list (spec §7.3): JSON or bracket arrays, a comma-separated string (items trimmed, empty ones
 * dropped) or a single scalar. Items are strings; at most {@link MAX_LIST_ITEMS}.
 */
export const stringList: ParamParser<string[]> = (raw, param) => {
  let items: unknown[];
  if (Array.isArray(raw)) items = (raw as unknown[]).flatMap((item) => (typeof item === 'string' ? item.split(',') : [item]));
  else if (typeof raw === 'string') items = raw.split(',');
  else if (typeof raw === 'number') items = [raw];
  else if (raw !== null && typeof raw === 'object' && Object.keys(raw).every((key) => /^\d+$/.test(key))) {
    items = Object.values(raw);
  } else return typeError('string_list', param);
  if (items.some((item) => typeof item !== 'string' && typeof item !== 'number')) return typeError('string_list', param);
  const result = items.map((item) => String(item).trim()).filter((item) => item !== '');
  if (result.length > MAX_LIST_ITEMS) return new Invalid({ key: 'too_many_items', args: { max: MAX_LIST_ITEMS } });
  return result;
};

/** A list whose items are all positive integers (ids); an empty list counts as not sent. */
export const idList: ParamParser<number[] | undefined> = (raw, param) => {
  const items = stringList(raw, param);
  if (items instanceof Invalid) return items;
  if (items.length === 0) return undefined;
  if (items.some((item) => !/^\d+$/.test(item) || Number(item) < 1 || !Number.isSafeInteger(Number(item)))) {
    return typeError('integer', param);
  }
  return [...new Set(items.map(Number))];
};

/** A list of ids and/or slugs; all-digit items are ids (spec §9.4, §9.6); an empty list counts as not sent. */
export const idOrSlugList: ParamParser<string[] | undefined> = (raw, param) => {
  const items = stringList(raw, param);
  if (items instanceof Invalid) return items;
  return items.length === 0 ? undefined : [...new Set(items.map((item) => item.toLowerCase()))];
};

/** A list that must name at least one item (`slug=` is refused). */
export const nonEmptyStringList: ParamParser<string[]> = (raw, param) => {
  const items = stringList(raw, param);
  if (items instanceof Invalid) return items;
  return items.length === 0 ? new Invalid({ key: 'not_empty' }) : items.map((item) => item.toLowerCase());
};

/** Accepts anything; used for parameters that are refused later with a specific error. */
export const anyValue: ParamParser<unknown> = (raw) => raw;

/** `status` on writes: one of the writable statuses, any case (spec §5.2). */
export const writableStatus: ParamParser<'publish' | 'future' | 'draft' | 'pending' | 'private'> = (raw, param) => {
  const value = lastValue(raw);
  if (value !== null && value !== undefined && typeof value !== 'string') return typeError('string', param);
  const word = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return ['publish', 'future', 'draft', 'pending', 'private'].includes(word)
    ? (word as 'publish' | 'future' | 'draft' | 'pending' | 'private')
    : new Invalid({ key: 'status' });
};

/** An absolute http/https URL of at most 255 characters; `""` and null clear the value. */
export const websiteUrl: ParamParser<string> = (raw, param) => {
  const value = text({ max: 255 })(raw, param);
  if (value instanceof Invalid || value === '') return value;
  try {
    const url = new URL(value);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && !/\s/.test(value)) return value;
  } catch {
    // not a URL
  }
  return new Invalid({ key: 'url' });
};

/** A date or time written in one of the forms of spec §6.2; parsed later, in the right zone. */
export const dateText: ParamParser<string> = (raw, param) => {
  const result = text({ max: 255, nonEmpty: true })(raw, param);
  return result instanceof Invalid && result.problem.key === 'not_empty' ? new Invalid({ key: 'date' }) : result;
};

/** A number within a range, or `""`/null to remove the value. */
export function nullableNumber(options: { min: number; max: number }): ParamParser<number | null> {
  const parse = number(options);
  return (raw, param) => {
    const value = lastValue(raw);
    return value === null || value === '' ? null : parse(value, param);
  };
}

/** A user id (`author`); its existence is checked by the service. */
export const userId: ParamParser<number> = (raw, param) => {
  const value = integer()(raw, param);
  return value instanceof Invalid || value >= 1 ? value : new Invalid({ key: 'author' });
};
