import { sanitizeSlug } from '../common/text/slug.js';
import type { CostDetailsResponse } from './event.response.js';

/** `COST_DECIMAL_SEPARATOR`. */
export type DecimalSeparator = '.' | ',';

export type CurrencyPosition = CostDetailsResponse['currency_position'];

/** The currency symbol and position stored with an event (both `""` when none was detected). */
export interface StoredCurrency {
  symbol: string;
  position: CurrencyPosition;
}

/** `DEFAULT_CURRENCY_SYMBOL` and `DEFAULT_CURRENCY_POSITION`. */
export interface DefaultCurrency {
  symbol: string;
  position: 'prefix' | 'postfix';
}

interface CostNumber {
  /** Normalised spelling, `.` as decimal point and no thousands separators. */
  text: string;
  value: number;
}

const NUMBER_TOKEN = /[0-9]+(?:[.,][0-9]+)*/g;
const FREE_WORD = 'free';

/**
 * Reads the `cost` write field (spec 8.8). Returns the list to store; an empty list means the cost is
 * removed (`""`, `null`, `[]`, or only blank items); `null` means the value has an invalid type.
 * Strings are trimmed and numbers written as plain decimal strings.
 */
export function normalizeCostInput(value: unknown): string[] | null {
  if (value === null) {
    return [];
  }
  const items = Array.isArray(value) ? (value as unknown[]) : [value];
  const costs: string[] = [];
  for (const item of items) {
    const text = costItemText(item);
    if (text === null) {
      return null;
    }
    if (text !== '') {
      costs.push(text);
    }
  }
  return costs;
}

function costItemText(item: unknown): string | null {
  if (typeof item === 'string') {
    return item.trim();
  }
  if (typeof item === 'number' && Number.isFinite(item)) {
    return decimalString(item);
  }
  return null;
}

function decimalString(value: number): string {
  const plain = String(value);
  // String() switches to exponent notation for very large or small numbers, which is not a cost.
  return /e/i.test(plain) ? value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 }) : plain;
}

function isFree(cost: string): boolean {
  return cost.trim().toLowerCase() === FREE_WORD;
}

function normaliseToken(token: string, decimalSeparator: DecimalSeparator): string {
  return decimalSeparator === '.' ? token.replace(/,/g, '') : token.replace(/\./g, '').replace(/,/g, '.');
}

function numbersIn(cost: string, decimalSeparator: DecimalSeparator): CostNumber[] {
  if (isFree(cost)) {
    return [{ text: '0', value: 0 }];
  }
  return Array.from(cost.matchAll(NUMBER_TOKEN), ([token]) => {
    const text = normaliseToken(token, decimalSeparator);
    // A token with several decimal points (`1.2.3`) keeps its spelling and counts as its leading number.
    return { text, value: Number.parseFloat(text) };
  });
}

interface ReadCosts {
  /** Distinct numbers of all cost strings, ascending; the first spelling of a value wins. */
  numbers: CostNumber[];
  /** Slug forms of the non-numeric cost strings, in input order, without empty or repeated ones. */
  words: string[];
}

function readCosts(costs: readonly string[], decimalSeparator: DecimalSeparator): ReadCosts {
  const byValue = new Map<number, CostNumber>();
  const words: string[] = [];
  for (const cost of costs) {
    const numbers = numbersIn(cost, decimalSeparator);
    if (numbers.length === 0) {
      const word = sanitizeSlug(cost);
      if (word !== '' && !words.includes(word)) {
        words.push(word);
      }
    }
    for (const number of numbers) {
      if (!byValue.has(number.value)) {
        byValue.set(number.value, number);
      }
    }
  }
  const numbers = [...byValue.values()].sort((a, b) => a.value - b.value);
  return { numbers, words };
}

const NO_CURRENCY: StoredCurrency = { symbol: '', position: '' };

/**
 * Currency detection on write (spec 8.8): the text before the first number of each cost string, or
 * if there is none the text after its last number. A string whose number stands alone (and `free`)
 * offers no candidate. All candidates must agree, otherwise nothing is stored. Number boundaries are
 * the same for both decimal separators, so the separator does not influence the result.
 */
export function detectCurrency(costs: readonly string[], _decimalSeparator: DecimalSeparator): StoredCurrency {
  let agreed: StoredCurrency | undefined;
  for (const cost of costs) {
    const candidate = currencyCandidate(cost);
    if (candidate === undefined) {
      continue;
    }
    if (agreed === undefined) {
      agreed = candidate;
    } else if (agreed.symbol !== candidate.symbol || agreed.position !== candidate.position) {
      return { ...NO_CURRENCY };
    }
  }
  return agreed ?? { ...NO_CURRENCY };
}

function currencyCandidate(cost: string): StoredCurrency | undefined {
  const tokens = [...cost.matchAll(NUMBER_TOKEN)];
  const first = tokens[0];
  const last = tokens[tokens.length - 1];
  if (first === undefined || last === undefined) {
    return undefined;
  }
  const before = cost.slice(0, first.index).trim();
  if (before !== '') {
    return { symbol: before, position: 'prefix' };
  }
  const after = cost.slice(last.index + last[0].length).trim();
  return after !== '' ? { symbol: after, position: 'postfix' } : undefined;
}

/** The `cost_details` object (spec 8.8); all empty when the event has no cost. */
export function costDetails(costs: readonly string[], stored: StoredCurrency, decimalSeparator: DecimalSeparator): CostDetailsResponse {
  if (costs.length === 0) {
    return { currency_symbol: '', currency_code: '', currency_position: '', values: [] };
  }
  const { numbers, words } = readCosts(costs, decimalSeparator);
  return {
    currency_symbol: stored.symbol,
    currency_code: '',
    currency_position: stored.position,
    values: [...numbers.map((number) => number.text), ...words],
  };
}

/** The `cost` display string (spec 8.8): `""`, one value, `"<smallest> – <largest>"`, or the first word. */
export function costDisplay(
  costs: readonly string[],
  stored: StoredCurrency,
  defaults: DefaultCurrency,
  decimalSeparator: DecimalSeparator,
): string {
  const { numbers } = readCosts(costs, decimalSeparator);
  const smallest = numbers[0];
  const largest = numbers[numbers.length - 1];
  if (smallest === undefined || largest === undefined) {
    return costs[0] ?? '';
  }
  const symbol = stored.symbol !== '' ? stored.symbol : defaults.symbol;
  const position = stored.position !== '' ? stored.position : defaults.position;
  const format = (number: CostNumber): string => {
    if (number.value === 0) {
      return 'Free';
    }
    return position === 'prefix' ? `${symbol}${number.text}` : `${number.text}${symbol}`;
  };
  return smallest.value === largest.value ? format(smallest) : `${format(smallest)} \u2013 ${format(largest)}`;
}

/** The JSON-LD offer price: the smallest value string, `"0"` when free; `null` when no number. */
export function lowestCostValue(costs: readonly string[], decimalSeparator: DecimalSeparator): string | null {
  const smallest = readCosts(costs, decimalSeparator).numbers[0];
  if (smallest === undefined) {
    return null;
  }
  return smallest.value === 0 ? '0' : smallest.text;
}
