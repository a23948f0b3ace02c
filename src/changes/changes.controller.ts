import { Controller, Get, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ErrorResponse } from '../common/errors/error.response.js';
import { ApiRoutes } from '../common/http/api-routes.js';
import { Ctx } from '../common/http/path-params.js';
import type { RequestContext } from '../common/http/request-context.js';
import { RESPONSE_TEXT } from '../common/openapi/route-doc.js';
import { ChangeFeedService } from './change-feed.service.js';
import { ChangesQueryDto } from './changes.query.js';
import { ChangeFeedEntry, ChangesResponse } from './changes.response.js';

@ApiTags('changes')
@ApiRoutes()
@ApiExtraModels(ChangesResponse, ChangeFeedEntry)
@Controller('changes')
export class ChangesController {
  constructor(private readonly feed: ChangeFeedService) {}

  @ApiOperation({
    summary: 'List changes',
    description:
      'Returns the changes committed after a cursor, in commit order, as the requester may see them: records that became readable are created, records that are gone or no longer readable are deleted. Follow next_cursor to read on.',
  })
  @ApiResponse({ status: 200, description: RESPONSE_TEXT[200], schema: { $ref: getSchemaPath(ChangesResponse) } })
  @ApiResponse({ status: 400, description: RESPONSE_TEXT[400], schema: { $ref: getSchemaPath(ErrorResponse) } })
  @ApiResponse({
    status: 410,
    description: 'The cursor is older than the changes kept; list everything again.',
    schema: { $ref: getSchemaPath(ErrorResponse) },
  })
  @Get()
  list(@Query() query: ChangesQueryDto, @Ctx() ctx: RequestContext): Promise<ChangesResponse> {
    return this.feed.page(query, ctx);
  }
}
