import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ApiRoutes } from '../common/http/api-routes.js';
import { Ctx } from '../common/http/path-params.js';
import type { RequestContext } from '../common/http/request-context.js';
import { TEC_NAMESPACE, TecDocsService } from './tec-docs.service.js';

/** `GET /wp-json/tec/v1` and `GET /wp-json/tec/v1/docs`: the two routes that want no acknowledgement. */
@ApiExcludeController()
@ApiRoutes(TEC_NAMESPACE)
@Controller(TEC_NAMESPACE)
export class TecNamespaceController {
  constructor(private readonly docs: TecDocsService) {}

  @Get()
  index(@Ctx() ctx: RequestContext) {
    return this.docs.namespaceIndex(ctx);
  }

  @Get('docs')
  document(@Ctx() ctx: RequestContext) {
    return this.docs.document(ctx);
  }
}
