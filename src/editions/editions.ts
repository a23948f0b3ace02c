import type { AppConfig } from '../config/app-config.js';

export interface EditionPath {
  edition: string;
  /** The rest of the path after the public path and the edition prefix, starting with `/` (or `''`). */
  rest: string;
}

/**
 * Language editions (spec §2.2): the default edition lives at `{public_url}{root}`, every other one at
 * `{public_url}/{lang}{root}`. Requests are accepted with and without the path of `PUBLIC_URL`.
 */
export class Editions {
  readonly codes: readonly string[];
  readonly defaultEdition: string;
  private readonly publicUrl: string;
  private readonly publicPath: string;
  private readonly root: string;
  private readonly namespace: string;

  constructor(config: Pick<AppConfig, 'http' | 'api'>) {
    this.codes = config.api.editions;
    this.defaultEdition = config.api.editions[0];
    this.publicUrl = config.http.publicUrl;
    this.publicPath = config.http.publicPath;
    this.root = config.api.root;
    this.namespace = config.api.namespace;
  }

  /** `{public_url}[/{lang}]{root}` */
  base(edition: string): string {
    return `${this.publicUrl}${edition === this.defaultEdition ? '' : `/${edition}`}${this.root}`;
  }

  /** `{base}/{namespace}` */
  api(edition: string): string {
    return `${this.base(edition)}/${this.namespace}`;
  }

  /**
   * The URL of `edition`'s OpenAPI document relative to the docs page of `page`: the page at
   * `[{public path}][/{lang}]/docs` names it relative to its own folder, so the page works through any
   * host, port and proxy path (`wp-json/…/doc`, `../de/wp-json/…/doc`).
   */
  documentFromDocsPage(edition: string, page: string): string {
    const up = page === this.defaultEdition ? '' : '../';
    const lang = edition === this.defaultEdition ? '' : `${edition}/`;
    return `${up}${lang}${this.root.replace(/^\/+/, '')}/${this.namespace}/doc`;
  }

  /** Path of an edition's docs page, outside the API: `docs`, `{lang}/docs`. */
  docsPage(edition: string): string {
    return edition === this.defaultEdition ? 'docs' : `${edition}/docs`;
  }

  /** The edition whose docs page (or one of its files) `path` addresses, or null. */
  docsPageEdition(path: string): string | null {
    const match = /^(?:\/([A-Za-z]{2}(?:-[A-Za-z]{2})?))?\/docs(?:\/.*)?$/.exec(path);
    if (!match) return null;
    if (match[1] === undefined) return this.defaultEdition;
    return match[1] !== this.defaultEdition && this.codes.includes(match[1]) ? match[1] : null;
  }

  resolve(path: string): EditionPath {
    let rest = path;
    if (this.publicPath && (rest === this.publicPath || rest.startsWith(`${this.publicPath}/`))) {
      rest = rest.slice(this.publicPath.length);
    }
    const prefix = /^\/([A-Za-z]{2}(?:-[A-Za-z]{2})?)(?=\/|$)/.exec(rest);
    if (prefix && prefix[1] !== this.defaultEdition && this.codes.includes(prefix[1])) {
      return { edition: prefix[1], rest: rest.slice(prefix[0].length) };
    }
    return { edition: this.defaultEdition, rest };
  }
}
