import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PinoLogger } from 'nestjs-pino';
import { pino } from 'pino';
import { API, startTestApp, type TestApp } from './support/test-app.js';

/**
 * README "Supported Node versions": the range `engines` declares, and the packages whose own
 * `engines` exclude Node 20 (npm prints EBADENGINE for them on `npm ci`), each shown harmless here
 * on the Node these tests run on.
 */
const ROOT = process.cwd();
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const section = readme.split('\n## ').find((part) => part.startsWith('Supported Node versions')) ?? '';

/** `^a.b.c` and `>=a.b.c` alternatives joined by `||`: the only shapes `engines` uses here. */
function satisfies(version: string, range: string): boolean {
  const [major, minor, patch] = version.replace(/^v/, '').split('.').map(Number);
  const at = (a: number[]) => major * 1e6 + minor * 1e3 + patch >= a[0] * 1e6 + a[1] * 1e3 + a[2];
  return range.split('||').some((alternative) => {
    const match = /^\s*(\^|>=)(\d+)\.(\d+)\.(\d+)\s*$/.exec(alternative);
    if (!match) throw new Error(`unexpected engines range: ${alternative}`);
    const floor = match.slice(2).map(Number);
    return match[1] === '>=' ? at(floor) : major === floor[0] && at(floor);
  });
}

describe('Node version support', () => {
  it('states in the README the same Node range as package.json engines, and this Node is in it', () => {
    expect(section).not.toBe('');
    expect(section).toContain(`\`"node": "${pkg.engines.node}"\``);
    expect(satisfies(process.version, pkg.engines.node)).toBe(true);
    // the README's stated versions match the range (no claim the range does not make)
    expect(satisfies('20.19.0', pkg.engines.node)).toBe(true);
    expect(satisfies('20.18.3', pkg.engines.node)).toBe(false);
    expect(satisfies('21.7.3', pkg.engines.node)).toBe(false);
    expect(satisfies('22.12.0', pkg.engines.node)).toBe(false);
    expect(satisfies('22.13.0', pkg.engines.node)).toBe(true);
    expect(satisfies('24.11.0', pkg.engines.node)).toBe(true);
    expect(section).toMatch(/^Node 20\.19 or later 20\.x, 22\.13 or later 22\.x, and 24\.11 or later:/m);
  });

  it('lists in the README every package npm warns about, each with its proof', () => {
    for (const name of [
      'nestjs-pino',
      'file-type',
      '@nestjs/cli',
      '@nestjs/schematics',
      '@angular-devkit/core',
      '@angular-devkit/schematics',
      '@angular-devkit/schematics-cli',
      'commander',
    ]) {
      expect(section).toContain(`\`${name}\``);
    }
    expect(section).toContain('test/node-support.e2e-spec.ts');
  });

  describe('nestjs-pino (declares Node >=22.12.0)', () => {
    let t: TestApp | undefined;
    afterEach(async () => {
      await t?.close();
      t = undefined;
    });

    it('writes one JSON request line for a real request on this Node', async () => {
      t = await startTestApp({ LOG_LEVEL: 'info', LOG_REQUESTS: 'true', LOG_FORMAT: 'json' });
      // pino's own destination (sonic-boom on fd 1, shared by the request loggers), wrapped for the
      // one request
      const root = (await t.app.resolve(PinoLogger)).logger as unknown as Record<symbol, { write: (line: string) => boolean }>;
      const destination = root[pino.symbols.streamSym];
      const written: string[] = [];
      const { write } = destination;
      destination.write = (line: string) => written.push(line) > 0;
      let res;
      try {
        res = await t.http().get(`${API}/categories`).set('User-Agent', 'node-support-test');
        await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        destination.write = write;
      }
      expect(res.status).toBe(200);
      const lines = written
        .join('')
        .split('\n')
        .filter((line) => line.includes('node-support-test'))
        .map((line) => JSON.parse(line) as { level: number; msg: string; method: string; url: string; status: number });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 30,
        msg: 'request completed',
        method: 'GET',
        url: `${API}/categories`,
        status: 200,
      });
    }, 60_000);
  });

  describe('file-type (declares Node >=22; pinned exactly by @nestjs/common)', () => {
    it('is never imported by the service: only FileTypeValidator loads it, and src/ uses no file validation', () => {
      const common = readFileSync(join(ROOT, 'node_modules/@nestjs/common/pipes/file/file-type.validator.js'), 'utf8');
      expect(common).toContain("await import('file-type')");
      const sources = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
      expect(sources.length).toBeGreaterThan(50);
      for (const file of sources) {
        const text = readFileSync(join(ROOT, 'src', file), 'utf8');
        expect({ file, uses: /FileTypeValidator|ParseFilePipe|file-type/.test(text) }).toEqual({ file, uses: false });
      }
    });

    it('still detects PNG and JPEG bytes on this Node, should a later change use it', async () => {
      const { fileTypeFromBuffer } = await import('file-type');
      const png = Buffer.from(
        '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a6d5a0f70000000049454e44ae426082',
        'hex',
      );
      const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
      expect(await fileTypeFromBuffer(png)).toEqual({ ext: 'png', mime: 'image/png' });
      expect(await fileTypeFromBuffer(jpeg)).toEqual({ ext: 'jpg', mime: 'image/jpeg' });
    });
  });
});
