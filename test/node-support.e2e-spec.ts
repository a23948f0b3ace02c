import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * docs/DEVELOPMENT.md "Supported Node versions" (the README links there): the range `engines` declares, the Node these tests run on is in
 * it, and every installed package (development tools included) accepts the lowest version of each
 * line of it, so `npm ci` prints no EBADENGINE anywhere in the range (CI also fails on one).
 */
const ROOT = process.cwd();
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};
const development = readFileSync(join(ROOT, 'docs/DEVELOPMENT.md'), 'utf8');
const section = development.split('\n## ').find((part) => part.startsWith('Supported Node versions')) ?? '';

type Version = [number, number, number];
const parse = (version: string): Version => version.replace(/^v/, '').split('.').map(Number) as Version;
const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/**
 * Whether a version satisfies an npm `engines` range of the shapes packages use: alternatives joined
 * by `||`, each a list of comparators (`>=1.2.3`, `>= 10`, `<4`, `^12.20`, `20`, `10.x`, `6.*`, `*`).
 */
function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  return range.split('||').some((alternative) => {
    const comparators = alternative
      .trim()
      .replace(/(>=|<=|>|<|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    return comparators.every((comparator) => {
      const match = /^(>=|<=|>|<|\^|~)?v?(\d+|\*|x)?(?:\.(\d+|\*|x))?(?:\.(\d+|\*|x))?$/.exec(comparator);
      if (!match) throw new Error(`unexpected engines range: ${range}`);
      const [, operator = '', ...parts] = match;
      const given = parts.filter((part) => part !== undefined && part !== '*' && part !== 'x').map(Number);
      if (given.length === 0) return true;
      const floor = [given[0], given[1] ?? 0, given[2] ?? 0] as Version;
      const next = (index: number): Version => (index === 0 ? [floor[0] + 1, 0, 0] : [floor[0], floor[1] + 1, 0]);
      switch (operator) {
        case '>=':
          return compare(v, floor) >= 0;
        case '>':
          return compare(v, floor) > 0;
        case '<':
          return compare(v, floor) < 0;
        case '<=':
          return compare(v, floor) <= 0;
        case '~':
          return compare(v, floor) >= 0 && compare(v, next(given.length > 1 ? 1 : 0)) < 0;
        case '^':
          return compare(v, floor) >= 0 && compare(v, next(floor[0] > 0 ? 0 : 1)) < 0;
        default:
          // a bare or partial version: that major (and minor, patch) only
          return given.every((part, index) => v[index] === part);
      }
    });
  });
}

describe('Node version support', () => {
  it('reads npm ranges as npm does', () => {
    expect(satisfies('22.22.3', '^22.22.3 || ^24.15.0 || >=26.0.0')).toBe(true);
    expect(satisfies('23.0.0', '^22.22.3 || ^24.15.0 || >=26.0.0')).toBe(false);
    expect(satisfies('24.21.0', '>= 20.11')).toBe(true);
    expect(satisfies('24.21.0', '^20.12||^22.13||>=24.0')).toBe(true);
    expect(satisfies('22.12.0', '^20.12||^22.13||>=24.0')).toBe(false);
    expect(satisfies('24.21.0', '18 || 20 || >=22')).toBe(true);
    expect(satisfies('21.0.0', '18 || 20 || >=22')).toBe(false);
    expect(satisfies('24.21.0', '6.* || 8.* || >= 10.*')).toBe(true);
    expect(satisfies('24.21.0', '*')).toBe(true);
    expect(satisfies('22.22.3', '^12.20 || >= 14.13')).toBe(true);
    expect(satisfies('22.22.3', '>=9.4.0 || ^8.9.4')).toBe(true);
    expect(satisfies('20.20.2', '>=22')).toBe(false);
  });

  it('states in docs/DEVELOPMENT.md the same Node range as package.json engines, and this Node is in it', () => {
    expect(section).not.toBe('');
    expect(section).toContain(`\`"node": "${pkg.engines.node}"\``);
    expect(satisfies(process.version, pkg.engines.node)).toBe(true);
    // the stated versions match the range (no claim the range does not make)
    expect(section).toMatch(/^Node 22\.22\.3 or later 22\.x, 24\.15 or later 24\.x, and 26 or later:/m);
    for (const [version, inside] of [
      ['20.20.2', false],
      ['22.22.2', false],
      ['22.22.3', true],
      ['23.11.0', false],
      ['24.14.1', false],
      ['24.15.0', true],
      ['25.9.0', false],
      ['26.0.0', true],
    ] as const) {
      expect({ version, inside: satisfies(version, pkg.engines.node) }).toEqual({ version, inside });
    }
  });

  it('every installed package accepts the lowest version of each supported line and this Node', () => {
    const floors = ['22.22.3', '24.15.0', '26.0.0', process.version.slice(1)];
    const refused: string[] = [];
    let declared = 0;
    for (const [path, entry] of Object.entries(lock.packages)) {
      const range = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
      if (path === '' || range === undefined) continue;
      declared += 1;
      for (const version of floors) {
        if (!satisfies(version, range)) refused.push(`${path}@${entry.version} (${range}) refuses ${version}`);
      }
    }
    expect(declared).toBeGreaterThan(100);
    expect(refused).toEqual([]);
  });
});
