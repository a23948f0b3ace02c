import { Controller, Get } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiExcludeController } from '@nestjs/swagger';
import type { HttpConfig } from '../config/app-config.js';
import { ApiError } from '../common/errors/api-error.js';
import { ApiRoutes } from '../common/http/api-routes.js';
import { Ctx } from '../common/http/path-params.js';
import type { RequestContext } from '../common/http/request-context.js';
import { sanitizeSlug } from '../common/text/slug.js';

/**
 * `GET /wp-json/wp/v2/users/me`, the one route of WordPress core's API served here: clients of
 * `tec/v1` (the vendor's MCP server) ask it to check their credentials before they start. It
 * answers the requester in WordPress core's shape (view context); anonymously 401.
 */
@ApiExcludeController()
@ApiRoutes('wp/v2')
@Controller('wp/v2/users')
export class CurrentUserController {
  private readonly publicUrl: string;

  constructor(config: ConfigService) {
    this.publicUrl = config.getOrThrow<HttpConfig>('http').publicUrl;
  }

  @Get('me')
  me(@Ctx() ctx: RequestContext) {
    if (!ctx.user) throw ApiError.forbidden(false);
    const slug = sanitizeSlug(ctx.user.login) || String(ctx.user.id);
    return {
      id: ctx.user.id,
      name: ctx.user.login,
      url: '',
      description: '',
      link: `${this.publicUrl}/author/${slug}/`,
      slug,
      meta: [],
      _links: { self: [{ href: `${ctx.base}/wp/v2/users/${ctx.user.id}` }], collection: [{ href: `${ctx.base}/wp/v2/users` }] },
    };
  }
}
