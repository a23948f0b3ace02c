import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { apiRootLink } from '../common/http/entity-tags.js';
import { Editions } from './editions.js';

/** Paths served outside the API: health checks and metrics. The docs pages (`/docs`, `/{lang}/docs`) ask `Editions`. */
const OUTSIDE_THE_API = /^\/(health(\/ready)?|metrics)\/?$/;
/** The docs page's other addresses (`…/docs/`, `…/docs/index.html`), sent to `…/docs`. */
const DOCS_PAGE_IN_FOLDER = /\/docs\/(index\.html)?$/;

/**
 * First step of every request: which language edition it addresses (spec §2.2: `/{lang}` prefix,
 * with or without `PUBLIC_URL`'s path), the request context every later step fills in, and the
 * headers every API answer carries (spec §14.1).
 */
@Injectable()
export class EditionMiddleware implements NestMiddleware {
  constructor(private readonly editions: Editions) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const query = req.url.indexOf('?');
    const rawPath = query === -1 ? req.url : req.url.slice(0, query);
    const search = query === -1 ? '' : req.url.slice(query + 1);
    const docsEdition = this.editions.docsPageEdition(rawPath);
    if (docsEdition !== null && DOCS_PAGE_IN_FOLDER.test(rawPath)) {
      // the page names its documents relative to its own folder: one address, `…/docs`
      res.redirect(301, `../docs${query === -1 ? '' : `?${search}`}`);
      return;
    }
    const outside = docsEdition !== null || OUTSIDE_THE_API.test(rawPath);
    const { edition, rest } = outside
      ? { edition: docsEdition ?? this.editions.defaultEdition, rest: rawPath }
      : this.editions.resolve(rawPath);
    const base = this.editions.base(edition);
    req.ctx = {
      edition,
      base,
      api: this.editions.api(edition),
      target: outside ? null : { path: rest, search },
      user: null,
      route: null,
      routeParams: {},
      subject: null,
      ifMatch: req.headers['if-match'] ?? null,
    };
    if (!outside) {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('X-Robots-Tag', 'noindex');
      res.setHeader('Link', apiRootLink(base));
      res.setHeader('Content-Language', edition);
      res.setHeader('Vary', 'Origin');
    }
    next();
  }
}
