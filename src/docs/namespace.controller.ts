import { Controller, Get, Options, Req, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Ctx } from '../common/http/path-params.js';
import type { RequestContext } from '../common/http/request-context.js';
import type { HttpConfig } from '../config/app-config.js';
import { INTERNAL_PATHS } from '../http/internal-paths.js';
import { ApiDocumentService } from './api-document.service.js';
import { OtherNamespaces } from '../http/other-namespaces.js';

/**
 * The answers about the API itself that no resource gives: the API index (spec §13.3), the bare
 * origin, and `OPTIONS` of a known route (spec §2.3 item 8). The route step sends them here.
 */
@ApiExcludeController()
@Controller()
export class NamespaceController {
  private readonly publicUrl: string;

  constructor(
    private readonly documents: ApiDocumentService,
    private readonly others: OtherNamespaces,
    config: ConfigService,
  ) {
    this.publicUrl = config.getOrThrow<HttpConfig>('http').publicUrl;
  }

  @Get(INTERNAL_PATHS.apiIndex)
  apiIndex(@Ctx() ctx: RequestContext) {
    return this.documents.apiIndex(ctx);
  }

  /** A browser goes to the docs page, any other client to the API index. */
  @Get(INTERNAL_PATHS.origin)
  origin(@Req() req: Request, @Res() res: Response): void {
    res.redirect(302, req.accepts(['json', 'html']) === 'html' ? `${this.publicUrl}/docs` : `${req.ctx.base}/`);
  }

  @Options(`${INTERNAL_PATHS.options}{/*route}`)
  routeEntry(@Ctx() ctx: RequestContext) {
    if (!ctx.route) return null;
    const other = ctx.route.namespace === null ? undefined : this.others.of(ctx.route.namespace);
    return other ? other.routeEntry(ctx, ctx.route) : this.documents.routeEntry(ctx, ctx.route);
  }
}
