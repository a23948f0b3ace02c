import { Controller, Get, Query } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import { DocumentDoc } from './route-docs.js';
import { ApiError } from '../common/errors/api-error.js';
import { Ctx } from '../common/http/path-params.js';
import type { RequestContext } from '../common/http/request-context.js';
import { ApiRoutes } from '../common/http/api-routes.js';
import { ApiDocumentService } from './api-document.service.js';
import { NamespaceIndexQueryDto } from './dto/namespace-index.query.js';
import { ErrorCode } from '../common/errors/error-codes.js';

@ApiTags('doc')
@ApiRoutes()
@Controller()
export class DocsController {
  constructor(private readonly documents: ApiDocumentService) {}

  /** The namespace index: every route with its methods and arguments. */
  @ApiExcludeEndpoint()
  @Get()
  index(@Query() query: NamespaceIndexQueryDto, @Ctx() ctx: RequestContext) {
    const index = this.documents.namespaceIndex(ctx);
    if (query.namespace !== undefined && query.namespace !== index.namespace) throw new ApiError(404, ErrorCode.InvalidNamespace);
    return index;
  }

  // texts from DocumentDoc (a doc comment here would replace its summary when the Swagger plugin compiles)
  @DocumentDoc()
  @Get('doc')
  document(@Ctx() ctx: RequestContext) {
    return this.documents.documentFor(ctx);
  }
}
