import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { API, startTestApp, type TestApp } from './support/test-app.js';
import { freePort } from './support/free-port.js';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`The docs page browser test is skipped: ${CHROMIUM} is not installed (apt-get install -y chromium).`);
const browserIt = haveChromium ? it : it.skip;

describe('the docs page for people', () => {
  let t: TestApp;
  let browser: Browser | undefined;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // PUBLIC_URL names another host and a proxy path: the page is opened here all the same.
    t = await startTestApp({ PUBLIC_URL: 'http://calendar.example.org:8080/cal' });
    await t.app.listen(port, '127.0.0.1');
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });

  it('serves Swagger UI under its own content-security policy', async () => {
    const res = await t.http().get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    const api = await t.http().get('/wp-json/tribe/events/v1/events');
    expect(api.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('serves each edition its own docs page at /{lang}/docs, and none for unknown or default codes', async () => {
    const german = await t.http().get('/de/docs');
    expect(german.status).toBe(200);
    expect(german.headers['content-type']).toMatch(/text\/html/);
    expect(german.headers['content-security-policy']).toContain("script-src 'self'");
    expect(german.text).toContain('<title>Veranstaltungskalender-API</title>');
    const init = await t.http().get('/de/docs/swagger-ui-init.js');
    expect(init.status).toBe(200);
    expect(init.text).toContain('"urls.primaryName": "Deutsch"');
    expect((await t.http().get('/de/docs/swagger-ui.css')).status).toBe(200);
    for (const path of ['/xx/docs', '/en/docs', '/de/docsx']) {
      const res = await t.http().get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    }
  });

  it('names the documents relative to the page, so it works through any host, port or proxy path', async () => {
    const documentsOf = async (page: string) => {
      const init = await t.http().get(`${page}/swagger-ui-init.js`);
      expect(init.status).toBe(200);
      const urls = /"urls": (\[[^\]]*\])/.exec(init.text);
      expect(urls).not.toBeNull();
      return JSON.parse((urls as RegExpExecArray)[1]) as Array<{ url: string; name: string }>;
    };
    for (const page of ['/docs', '/de/docs']) {
      const documents = await documentsOf(page);
      expect(documents.map((document) => document.name).slice(0, 2)).toEqual(['English', 'Deutsch']);
      for (const { url } of documents) {
        expect({ page, url }).toEqual({ page, url: expect.stringMatching(/^(\.\.\/)?[a-z]/) });
        expect(url).not.toContain('example.org');
        // resolved as the browser does, behind a proxy path and directly
        expect(new URL(url, `https://proxy.example.net/calendar${page}`).pathname).toMatch(
          /^\/calendar\/([a-z]{2}(-[a-z]{2})?\/)?wp-json\/tribe\/events\/v1\/doc$/,
        );
        const res = await t.http().get(new URL(url, `${base}${page}`).pathname);
        expect({ page, url, status: res.status }).toEqual({ page, url, status: 200 });
        expect(res.body.openapi).toMatch(/^3\./);
      }
    }
    expect((await documentsOf('/docs')).map((document) => document.url).slice(0, 2)).toEqual([
      'wp-json/tribe/events/v1/doc',
      'de/wp-json/tribe/events/v1/doc',
    ]);
    expect((await documentsOf('/de/docs')).map((document) => document.url).slice(0, 2)).toEqual([
      '../wp-json/tribe/events/v1/doc',
      '../de/wp-json/tribe/events/v1/doc',
    ]);
    // the page's other addresses lead to the one its relative URLs are made for
    for (const [path, location] of [
      ['/docs/', '../docs'],
      ['/de/docs/index.html', '../docs'],
    ]) {
      const res = await t.http().get(path).redirects(0);
      expect({ path, status: res.status, location: res.headers.location }).toEqual({ path, status: 301, location });
    }
  });

  browserIt('renders the operations in a real browser and switches language', async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // through the trailing-slash address, on a host that is not PUBLIC_URL's
    await page.goto(`${base}/docs/`);
    expect(new URL(page.url()).pathname).toBe('/docs');
    await page.waitForSelector('.opblock-summary', { timeout: 20000 });
    const english = await page.locator('.opblock-summary-description').allTextContents();
    expect(english).toContain('List events');
    // one section per tag of the document, in its order, none called "default"
    const sections = await page.locator('.opblock-tag').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-tag')));
    const documentTags = ((await t.http().get(`${API}/doc`)).body.tags as Array<{ name: string }>).map((tag) => tag.name);
    expect(sections).toEqual(documentTags);
    expect(sections.slice(0, 6)).toEqual(['doc', 'events', 'venues', 'organizers', 'categories', 'tags']);
    expect(sections).not.toContain('default');
    if (process.env.DOCS_SCREENSHOT) await page.screenshot({ path: process.env.DOCS_SCREENSHOT, fullPage: true });
    await page.selectOption('.topbar select', { label: 'Deutsch' });
    // The German document has replaced the English one: as many operations shown again, none in English.
    await page.waitForFunction(
      (count) => {
        // runs in the page (the test is compiled without the DOM library)
        const doc = (
          globalThis as unknown as { document: { querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }> } }
        ).document;
        const shown = Array.from(doc.querySelectorAll('.opblock-summary-description'));
        return shown.length === count && !shown.some((node) => node.textContent === 'List events');
      },
      english.length,
      { timeout: 20000 },
    );
    const german = await page.locator('.opblock-summary-description').allTextContents();
    expect(german.length).toBe(english.length);
    expect(german).not.toContain('List events');
    expect(errors).toEqual([]);
  });

  browserIt('opens /de/docs on the German document', async () => {
    const page = await (browser as Browser).newPage();
    await page.goto(`${base}/de/docs`);
    await page.waitForSelector('.opblock-summary', { timeout: 20000 });
    const summaries = await page.locator('.opblock-summary-description').allTextContents();
    expect(summaries).toContain('Veranstaltungen auflisten');
    expect(await page.title()).toBe('Veranstaltungskalender-API');
  });
});
