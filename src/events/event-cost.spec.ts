import {
  costDetails,
  costDisplay,
  detectCurrency,
  lowestCostValue,
  normalizeCostInput,
  type DecimalSeparator,
  type DefaultCurrency,
} from './event-cost.js';

const DOLLAR_PREFIX: DefaultCurrency = { symbol: '$', position: 'prefix' };

/** Runs a `cost` value through write (normalise, detect) and read (display, details). */
function roundTrip(sent: unknown, decimalSeparator: DecimalSeparator = '.', defaults = DOLLAR_PREFIX) {
  const costs = normalizeCostInput(sent);
  if (costs === null) {
    throw new Error('invalid cost');
  }
  const stored = detectCurrency(costs, decimalSeparator);
  return {
    cost: costDisplay(costs, stored, defaults, decimalSeparator),
    details: costDetails(costs, stored, decimalSeparator),
  };
}

describe('spec 8.8 table', () => {
  it.each<[unknown, string, string, string, string[]]>([
    ['20$', '20$', '$', 'postfix', ['20']],
    ['$20', '$20', '$', 'prefix', ['20']],
    [['0$', '20$', '30$'], 'Free – 30$', '$', 'postfix', ['0', '20', '30']],
    ['5', '$5', '', '', ['5']],
    [[23, 12, 0], 'Free – $23', '', '', ['0', '12', '23']],
    ['€6.50 - €8.50', '€6.50 – €8.50', '€', 'prefix', ['6.50', '8.50']],
    ['12 EUR', '12EUR', 'EUR', 'postfix', ['12']],
    [['$10', '15 EUR'], '$10 – $15', '', '', ['10', '15']],
    ['Free', 'Free', '', '', ['0']],
    ['Donation', 'Donation', '', '', ['donation']],
    ['', '', '', '', []],
  ])('cost %j → %j', (sent, cost, symbol, position, values) => {
    expect(roundTrip(sent)).toEqual({
      cost,
      details: { currency_symbol: symbol, currency_code: '', currency_position: position, values },
    });
  });

  it('uses an EN DASH surrounded by spaces for ranges', () => {
    expect(roundTrip(['$5', '$12']).cost).toBe('$5 \u2013 $12');
  });
});

describe('normalizeCostInput', () => {
  it('stores a string as a one-item list, trimmed', () => {
    expect(normalizeCostInput('  $20 ')).toEqual(['$20']);
  });

  it('writes numbers as decimal strings', () => {
    expect(normalizeCostInput(12)).toEqual(['12']);
    expect(normalizeCostInput(6.5)).toEqual(['6.5']);
    expect(normalizeCostInput(1e21)).toEqual(['1000000000000000000000']);
    expect(normalizeCostInput(1e-7)).toEqual(['0.0000001']);
  });

  it('accepts arrays of strings and numbers', () => {
    expect(normalizeCostInput(['$10', 15, ' 20 EUR '])).toEqual(['$10', '15', '20 EUR']);
  });

  it('returns an empty list (removal) for "", null, [] and blank items', () => {
    expect(normalizeCostInput('')).toEqual([]);
    expect(normalizeCostInput('   ')).toEqual([]);
    expect(normalizeCostInput(null)).toEqual([]);
    expect(normalizeCostInput([])).toEqual([]);
    expect(normalizeCostInput(['', ' '])).toEqual([]);
  });

  it('returns null for other types', () => {
    expect(normalizeCostInput(true)).toBeNull();
    expect(normalizeCostInput({ amount: 5 })).toBeNull();
    expect(normalizeCostInput(undefined)).toBeNull();
    expect(normalizeCostInput(Number.NaN)).toBeNull();
    expect(normalizeCostInput(['5', false])).toBeNull();
    expect(normalizeCostInput([['5']])).toBeNull();
    expect(normalizeCostInput(['5', null])).toBeNull();
  });
});

describe('decimal separators', () => {
  it('reads "," as a thousands separator with "."', () => {
    expect(roundTrip('$1,500.50')).toEqual({
      cost: '$1500.50',
      details: { currency_symbol: '$', currency_code: '', currency_position: 'prefix', values: ['1500.50'] },
    });
    expect(roundTrip('5,50 €').details.values).toEqual(['550']);
  });

  it('swaps the roles with ","', () => {
    expect(roundTrip('1.500,50 €', ',')).toEqual({
      cost: '1500.50€',
      details: { currency_symbol: '€', currency_code: '', currency_position: 'postfix', values: ['1500.50'] },
    });
    expect(roundTrip('5,50 €', ',').details.values).toEqual(['5.50']);
    expect(roundTrip('€6.50 - €8.50', ',').details.values).toEqual(['650', '850']);
  });

  it('reads the spec table the same way with "," where no separator is involved', () => {
    expect(roundTrip(['0$', '20$', '30$'], ',').cost).toBe('Free – 30$');
    expect(roundTrip('12 EUR', ',').cost).toBe('12EUR');
    expect(roundTrip([23, 12, 0], ',').cost).toBe('Free – $23');
    expect(roundTrip('Free', ',').details.values).toEqual(['0']);
  });

  it('keeps the written spelling of a normalised number', () => {
    expect(roundTrip('$6.00').details.values).toEqual(['6.00']);
    expect(roundTrip('$6.00').cost).toBe('$6.00');
  });
});

describe('values', () => {
  it('lists equal values once, keeping the first spelling, sorted numerically', () => {
    expect(roundTrip(['$10.0', '$9', '$10', '$100', '$9.00']).details.values).toEqual(['9', '10.0', '100']);
  });

  it('collects every number of every string', () => {
    expect(roundTrip('Adults $12, children $6, seniors $8').details.values).toEqual(['6', '8', '12']);
  });

  it('appends slug forms of non-numeric strings in input order, once each', () => {
    expect(roundTrip(['Pay what you want', '$5', 'Donation', 'donation!']).details.values).toEqual(['5', 'pay-what-you-want', 'donation']);
  });

  it('treats "free" in any case as 0, but not inside other text', () => {
    expect(roundTrip(['FREE', '$5']).details.values).toEqual(['0', '5']);
    expect(roundTrip('Free entry').details.values).toEqual(['free-entry']);
  });
});

describe('detectCurrency', () => {
  it('uses the text before the first number, else the text after the last one', () => {
    expect(detectCurrency(['USD 5 - 10 per person'], '.')).toEqual({ symbol: 'USD', position: 'prefix' });
    expect(detectCurrency(['5 - 10 kr'], '.')).toEqual({ symbol: 'kr', position: 'postfix' });
  });

  it('ignores strings without a candidate', () => {
    expect(detectCurrency(['$5', '10', 'Donation', 'free'], '.')).toEqual({ symbol: '$', position: 'prefix' });
  });

  it('stores nothing when candidates disagree in text or position', () => {
    expect(detectCurrency(['$5', '€6'], '.')).toEqual({ symbol: '', position: '' });
    expect(detectCurrency(['$5', '6$'], '.')).toEqual({ symbol: '', position: '' });
  });

  it('stores nothing when there is no candidate or no cost', () => {
    expect(detectCurrency(['5', '10'], ',')).toEqual({ symbol: '', position: '' });
    expect(detectCurrency([], '.')).toEqual({ symbol: '', position: '' });
  });
});

describe('costDisplay', () => {
  const stored = { symbol: '', position: '' } as const;

  it('uses the default symbol and position when none is stored', () => {
    expect(costDisplay(['5', '7'], stored, { symbol: '€', position: 'postfix' }, '.')).toBe('5€ – 7€');
  });

  it('uses the default position when only the position is missing', () => {
    expect(costDisplay(['5'], { symbol: 'CHF', position: '' }, DOLLAR_PREFIX, '.')).toBe('CHF5');
  });

  it('shows one value when smallest and largest are equal', () => {
    expect(costDisplay(['$5', '$5.00'], { symbol: '$', position: 'prefix' }, DOLLAR_PREFIX, '.')).toBe('$5');
    expect(costDisplay(['0', 'free'], stored, DOLLAR_PREFIX, '.')).toBe('Free');
  });

  it('writes Free for a zero value in any spelling', () => {
    expect(costDisplay(['0.00', '12'], stored, DOLLAR_PREFIX, '.')).toBe('Free – $12');
  });

  it('ignores non-numeric strings when there is a number', () => {
    expect(costDisplay(['Donation', '$5'], { symbol: '$', position: 'prefix' }, DOLLAR_PREFIX, '.')).toBe('$5');
  });

  it('shows the first non-numeric string as sent when there is no number', () => {
    expect(costDisplay(['Pay at the door!', 'Donation'], stored, DOLLAR_PREFIX, '.')).toBe('Pay at the door!');
  });

  it('is empty without cost', () => {
    expect(costDisplay([], stored, DOLLAR_PREFIX, '.')).toBe('');
  });
});

describe('costDetails', () => {
  it('is all empty without cost, whatever is stored', () => {
    expect(costDetails([], { symbol: '$', position: 'prefix' }, '.')).toEqual({
      currency_symbol: '',
      currency_code: '',
      currency_position: '',
      values: [],
    });
  });

  it('reports the stored currency', () => {
    expect(costDetails(['5'], { symbol: '€', position: 'postfix' }, '.')).toEqual({
      currency_symbol: '€',
      currency_code: '',
      currency_position: 'postfix',
      values: ['5'],
    });
  });
});

describe('lowestCostValue', () => {
  it('returns the smallest value string', () => {
    expect(lowestCostValue(['$12', '$5.50'], '.')).toBe('5.50');
    expect(lowestCostValue(['1.500,50 €', '2.000 €'], ',')).toBe('1500.50');
  });

  it('returns "0" for free in any spelling', () => {
    expect(lowestCostValue(['Free', '$30'], '.')).toBe('0');
    expect(lowestCostValue(['0.00$', '20$'], '.')).toBe('0');
  });

  it('returns null without a number', () => {
    expect(lowestCostValue(['Donation'], '.')).toBeNull();
    expect(lowestCostValue([], '.')).toBeNull();
  });
});
