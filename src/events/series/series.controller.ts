import { applyDecorators, Controller, Get, Query, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiParam, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Response } from 'express';
import { ErrorResponse } from '../../common/errors/error.response.js';
import { ApiRoutes } from '../../common/http/api-routes.js';
import { sendList } from '../../common/http/list-response.js';
import { Ctx, PathId } from '../../common/http/path-params.js';
import type { RequestContext } from '../../common/http/request-context.js';
import { RESPONSE_TEXT } from '../../common/openapi/route-doc.js';
import { schemaClosure } from '../../common/openapi/response-schema.js';
import { listPageResponse } from '../../common/paging/list-page.response.js';
import { PageQueryDto } from '../../common/paging/page-query.dto.js';
import { EventResponse } from '../event.response.js';
import { SeriesReadsService } from './series-reads.service.js';
import { SeriesResponse } from './series.response.js';

const SERIES_ID = { name: 'id', type: 'integer', required: true, description: 'ID of the series: the ID of its main event.' } as const;
const errors = (...statuses: number[]) =>
  applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: RESPONSE_TEXT[status], schema: { $ref: getSchemaPath(ErrorResponse) } }),
    ),
  );

/** Recurring events read as series (extension): the rule and its occurrences. */
@ApiTags('series')
@ApiRoutes()
@ApiExtraModels(...schemaClosure(SeriesResponse), ErrorResponse)
@Controller('series')
export class SeriesController {
  constructor(private readonly series: SeriesReadsService) {}

  @ApiOperation({
    summary: 'Read a series',
    description:
      'Returns the rule of a recurring event, its main event, how many occurrences and exceptions it has, and its next occurrence.',
  })
  @ApiParam(SERIES_ID)
  @ApiResponse({ status: 200, description: RESPONSE_TEXT[200], schema: { $ref: getSchemaPath(SeriesResponse) } })
  @errors(401, 403, 404)
  @Get(':id')
  findOne(@PathId() id: number, @Ctx() ctx: RequestContext) {
    return this.series.findOne(id, ctx);
  }

  @ApiOperation({
    summary: 'List the occurrences of a series',
    description:
      'Returns a page of the events of a series in start order, the main event and the occurrences edited on their own included.',
  })
  @ApiParam(SERIES_ID)
  @ApiResponse({ status: 200, description: RESPONSE_TEXT[200], schema: { $ref: getSchemaPath(listPageResponse('events', EventResponse)) } })
  @errors(400, 401, 403, 404)
  @Get(':id/occurrences')
  async occurrences(
    @PathId() id: number,
    @Query() query: PageQueryDto,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ) {
    return sendList(res, await this.series.occurrences(id, query, ctx));
  }
}
