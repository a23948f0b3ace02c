import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The documentation's own links hold: every relative link and `#anchor` in README.md, CHANGELOG.md and
 * docs/*.md names a file or folder that exists and, where it names a heading, a heading of that page
 * (anchors as GitHub makes them from the heading's text). Links to other sites are not followed.
 */
const ROOT = process.cwd();
const PAGES = [
  'README.md',
  'CHANGELOG.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The page without fenced code blocks and inline code, where brackets and `#` lines are not Markdown. */
function prose(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split('\n').map((line) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length) fence = null;
      return '';
    }
    if (opening) {
      fence = opening[1];
      return '';
    }
    return line.replace(/(`+)[\s\S]*?\1/g, (code) => ' '.repeat(code.length));
  });
}

/** GitHub's anchor for a heading: its text, lower case, without punctuation, spaces as hyphens. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/[*_~`]/g, (mark) => (mark === '_' ? '_' : '')); // emphasis and code marks (underscores stay)
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a page offers: its headings (repeated ones numbered as GitHub does) and explicit ids. */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  const raw = markdown.split('\n');
  prose(markdown).forEach((line, index) => {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      // the heading's own text, code spans included (prose() blanked them)
      const text = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw[index])?.[1] ?? heading[1];
      const base = slug(text);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      found.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const id of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(id[1]);
  });
  return found;
}

/** The targets of a page's links: inline `[text](target)` and reference definitions `[label]: target`. */
function linkTargets(markdown: string): Array<{ line: number; target: string }> {
  const targets: Array<{ line: number; target: string }> = [];
  prose(markdown).forEach((text, index) => {
    for (const match of text.matchAll(/\]\(\s*<?([^()\s>]+(?:\([^()\s]*\)[^()\s>]*)*)>?(?:\s+"[^"]*")?\s*\)/g)) {
      targets.push({ line: index + 1, target: match[1] });
    }
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/.exec(text);
    if (definition) targets.push({ line: index + 1, target: definition[1] });
  });
  return targets;
}

/** What is wrong with one link of `page`, or null when it resolves. */
function brokenLink(page: string, target: string, read: (path: string) => string | null): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return null; // another site, mailto:
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
  const path = pathPart === '' ? page : join(dirname(page), decodeURIComponent(pathPart));
  if (relative(ROOT, resolve(ROOT, path)).startsWith('..')) return `${target}: outside the repository`;
  if (pathPart !== '' && !existsSync(join(ROOT, path))) return `${target}: no such file`;
  if (anchor === undefined || anchor === '') return null;
  if (!path.endsWith('.md') || statSync(join(ROOT, path)).isDirectory()) return `${target}: an anchor on a page that is not Markdown`;
  const markdown = read(path);
  if (markdown === null) return `${target}: cannot be read`;
  return anchors(markdown).has(decodeURIComponent(anchor).toLowerCase()) ? null : `${target}: no heading with that anchor in ${path}`;
}

const readPage = (path: string): string | null => (existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), 'utf8') : null);

describe('links in the documentation', () => {
  it('makes anchors as GitHub does', () => {
    expect(slug('Importing a site of the reference plugin (`import:tec`)')).toBe('importing-a-site-of-the-reference-plugin-importtec');
    expect(slug('Several machines: app replicas, read replicas, Redis')).toBe('several-machines-app-replicas-read-replicas-redis');
    expect(slug('Running it: `deploy/`')).toBe('running-it-deploy');
    expect(slug('MySQL / MariaDB')).toBe('mysql--mariadb');
    expect(slug('8.4 Organizer')).toBe('84-organizer');
    expect(slug('Domain events: reacting to changes')).toBe('domain-events-reacting-to-changes');
    expect([...anchors('# A\n## Notes\n```sh\n# not a heading\n```\n## Notes\n<a id="here"></a>')]).toEqual([
      'a',
      'notes',
      'notes-1',
      'here',
    ]);
  });

  it('finds the links of a page, and only outside code', () => {
    const page =
      'See [a](docs/A.md#x), [b](<B.md>) and [c](https://example.org).\n`[not](a-link.md)`\n```\n[nor](this.md)\n```\n[ref]: docs/C.md';
    expect(linkTargets(page).map(({ target }) => target)).toEqual(['docs/A.md#x', 'B.md', 'https://example.org', 'docs/C.md']);
  });

  it('reports a link to a missing file or heading', () => {
    expect(brokenLink('README.md', 'docs/NO-SUCH-PAGE.md', readPage)).toMatch(/no such file/);
    expect(brokenLink('README.md', 'docs/OPERATIONS.md#no-such-heading', readPage)).toMatch(/no heading/);
    expect(brokenLink('README.md', '#no-such-heading', readPage)).toMatch(/no heading/);
    expect(brokenLink('README.md', 'docs/OPERATIONS.md#logs', readPage)).toBeNull();
    expect(brokenLink('docs/OPERATIONS.md', '../README.md#quick-start', readPage)).toBeNull();
  });

  it.each(PAGES)('every relative link and anchor in %s resolves', (page) => {
    const markdown = readPage(page) as string;
    const targets = linkTargets(markdown);
    const broken = targets
      .map(({ line, target }) => ({ line, problem: brokenLink(page, target, readPage) }))
      .filter(({ problem }) => problem !== null)
      .map(({ line, problem }) => `${page}:${line}: ${problem}`);
    expect(broken).toEqual([]);
  });

  it('checks pages that have links at all', () => {
    const relativeLinks = PAGES.flatMap((page) =>
      linkTargets(readPage(page) as string).filter(({ target }) => !/^[a-z][a-z0-9+.-]*:/i.test(target)),
    );
    expect(PAGES).toEqual(expect.arrayContaining(['README.md', 'docs/OPERATIONS.md', 'docs/CONFIGURATION.md']));
    expect(relativeLinks.length).toBeGreaterThan(50);
  });
});
