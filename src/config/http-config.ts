import { ConfigError, flag, integer, type EnvReader } from './env-values.js';

export interface HttpConfig {
  port: number;
  /** Public URL without a trailing slash, e.g. `https://calendar.example.org/cal`. */
  publicUrl: string;
  /** Path part of the public URL (`/cal`), or `''`. Requests are accepted with and without it. */
  publicPath: string;
  /** Host and path of the public URL without scheme and port, used by `global_id`. */
  globalIdBase: string;
  corsOrigins: '*' | string[];
  maxBodyBytes: number;
  /** Request line plus headers, in bytes (Node's parser limit): beyond it 431, or 414 while still in the URL. */
  maxHeaderBytes: number;
  /** Request target (path and query), in bytes: beyond it 414. */
  maxUrlBytes: number;
  /** Milliseconds the server waits for requests in flight on shutdown. */
  shutdownGraceMs: number;
  /** `max-age` of `Cache-Control: public, max-age=N, must-revalidate` on anonymous 200/304 reads (`HTTP_CACHE_MAX_AGE`). */
  cacheMaxAgeSeconds: number;
  /** `s-maxage` added to it for shared caches (a cache in front, `HTTP_CACHE_SHARED_MAX_AGE`); 0 adds none. */
  cacheSharedMaxAgeSeconds: number;
}

export interface ApiConfig {
  /** `/wp-json` by default. */
  root: string;
  vendor: string;
  /** `<vendor>/events/v1`. */
  namespace: string;
  /** Language codes; the first is the default edition, served without a prefix. */
  editions: string[];
  /** The language the records' own text is written in (`CONTENT_LANGUAGE`, one of the editions; default the first). */
  contentLanguage: string;
  /**
   * Per edition, the languages whose text answers in order, the edition's own first and the content
   * language last (`CONTENT_FALLBACKS`, e.g. `pt-br:es,sv:de:fr`: an edition not named goes from its
   * own text straight to the content language).
   */
  contentChains: Record<string, string[]>;
  /**
   * Whether the `tec/v1` routes want the reference's acknowledgement header `X-TEC-EEA`
   * (`TEC_V1_REQUIRE_ACKNOWLEDGEMENT`, default true); false serves them without it.
   */
  tecV1Acknowledgement: boolean;
}

const LANGUAGE_CODE = /^[a-z]{2}(-[a-z]{2})?$/;
export const DEFAULT_EDITIONS = 'en,de,fr,es,it,nl,pt-br,pl,sv,ja,zh-cn,ko';

export function readHttpConfig(read: EnvReader): HttpConfig {
  const port = integer(read('PORT') ?? '3000', 'PORT', 0, 65535);
  const publicUrl = parsePublicUrl(read('PUBLIC_URL') ?? `http://localhost:${port}`);
  const corsRaw = read('CORS_ORIGINS') ?? '*';
  return {
    port,
    ...publicUrl,
    corsOrigins: corsRaw === '*' ? '*' : corsRaw.split(',').map((origin) => parseOrigin(origin.trim())),
    maxBodyBytes: integer(read('MAX_BODY_BYTES') ?? '1048576', 'MAX_BODY_BYTES', 1, 1024 * 1024 * 1024),
    maxHeaderBytes: integer(read('MAX_HEADER_BYTES') ?? '16384', 'MAX_HEADER_BYTES', 1024, 1024 * 1024),
    maxUrlBytes: integer(read('MAX_URL_BYTES') ?? '8192', 'MAX_URL_BYTES', 256, 1024 * 1024),
    shutdownGraceMs: integer(read('SHUTDOWN_GRACE_MS') ?? '10000', 'SHUTDOWN_GRACE_MS', 0, 600000),
    cacheMaxAgeSeconds: integer(read('HTTP_CACHE_MAX_AGE') ?? '0', 'HTTP_CACHE_MAX_AGE', 0, 31_536_000),
    cacheSharedMaxAgeSeconds: integer(read('HTTP_CACHE_SHARED_MAX_AGE') ?? '0', 'HTTP_CACHE_SHARED_MAX_AGE', 0, 31_536_000),
  };
}

export function readApiConfig(read: EnvReader): ApiConfig {
  const root = read('API_ROOT') ?? '/wp-json';
  if (!/^\/[A-Za-z0-9._~%!$&'()*+,;=:@/-]*[^/]$/.test(root)) {
    throw new ConfigError('API_ROOT', 'must start with "/" and must not end with "/"');
  }
  const vendor = read('API_VENDOR') ?? 'tribe';
  if (!/^[a-z0-9-]+$/.test(vendor)) throw new ConfigError('API_VENDOR', 'must match [a-z0-9-]+');

  const editions = (read('EDITIONS') ?? DEFAULT_EDITIONS).split(',').map((code) => code.trim().toLowerCase());
  if (editions.some((code) => !LANGUAGE_CODE.test(code)) || new Set(editions).size !== editions.length) {
    throw new ConfigError('EDITIONS', 'must be a comma-separated list of distinct language codes such as en,de,pt-br');
  }
  const contentLanguage = (read('CONTENT_LANGUAGE') ?? editions[0]).trim().toLowerCase();
  if (!editions.includes(contentLanguage)) throw new ConfigError('CONTENT_LANGUAGE', `must be one of the editions (${editions.join(',')})`);
  const contentChains = readContentChains(read('CONTENT_FALLBACKS'), editions, contentLanguage);
  const tecV1Acknowledgement = flag(read('TEC_V1_REQUIRE_ACKNOWLEDGEMENT') ?? 'true', 'TEC_V1_REQUIRE_ACKNOWLEDGEMENT');
  return { root, vendor, namespace: `${vendor}/events/v1`, editions, contentLanguage, contentChains, tecV1Acknowledgement };
}

/** `CONTENT_FALLBACKS`: comma-separated chains `edition:fallback[:fallback…]`, every code an edition. */
function readContentChains(raw: string | undefined, editions: string[], contentLanguage: string): Record<string, string[]> {
  const named: Record<string, string[]> = {};
  for (const chain of (raw ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    const codes = chain.split(':').map((code) => code.trim().toLowerCase());
    if (codes.length < 2 || codes.some((code) => !editions.includes(code)) || new Set(codes).size !== codes.length || codes[0] in named) {
      throw new ConfigError(
        'CONTENT_FALLBACKS',
        'must be comma-separated chains of distinct editions such as pt-br:es,sv:de, each edition starting one chain at most',
      );
    }
    named[codes[0]] = codes;
  }
  const chains: Record<string, string[]> = {};
  for (const edition of editions) {
    const chain = (named[edition] ?? [edition]).filter((code) => code !== contentLanguage);
    chains[edition] = [...chain, contentLanguage];
  }
  return chains;
}

function parsePublicUrl(raw: string): Pick<HttpConfig, 'publicUrl' | 'publicPath' | 'globalIdBase'> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('PUBLIC_URL', 'must be an absolute http or https URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username) {
    throw new ConfigError('PUBLIC_URL', 'must be an absolute http or https URL without query, fragment or user');
  }
  const publicPath = url.pathname.replace(/\/+$/, '');
  return {
    publicUrl: `${url.protocol}//${url.host}${publicPath}`,
    publicPath,
    globalIdBase: `${url.hostname}${publicPath}`,
  };
}

function parseOrigin(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.origin === 'null' || url.pathname !== '/' || url.search) throw new Error('not an origin');
    return url.origin;
  } catch {
    throw new ConfigError('CORS_ORIGINS', 'must be "*" or a comma-separated list of origins such as https://app.example.org');
  }
}
