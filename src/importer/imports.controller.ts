import { Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiParam, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Response } from 'express';
import { ErrorResponse } from '../common/errors/error.response.js';
import { ApiRoutes } from '../common/http/api-routes.js';
import { Ctx, PathId } from '../common/http/path-params.js';
import type { RequestContext } from '../common/http/request-context.js';
import { RESPONSE_TEXT } from '../common/openapi/route-doc.js';
import { StartImportDto } from './dto/start-import.dto.js';
import { ImportJobsService } from './import-jobs.service.js';
import { ImportJobListResponse, ImportJobResponse } from './import-job.response.js';

const ERROR = { $ref: getSchemaPath(ErrorResponse) };
const JOB = { $ref: getSchemaPath(ImportJobResponse) };

/** Import jobs over HTTP, for administrators: the same importer as `npm run cli -- import:tec`. */
@ApiTags('imports')
@ApiRoutes()
@ApiExtraModels(ImportJobResponse, ImportJobListResponse, ErrorResponse)
@Controller('imports')
export class ImportsController {
  constructor(private readonly jobs: ImportJobsService) {}

  @ApiOperation({
    summary: 'Start an import',
    description:
      'Starts importing categories, tags, venues, organizers and events from a site of The Events Calendar (or another instance of this service) through its REST API, keeping IDs and slugs where they are free here; a job of a source imported before updates what changed and resumes an interrupted one. Administrators only. The answer is the job; follow its progress at its address.',
  })
  @ApiResponse({ status: 202, description: 'The import job was started.', schema: JOB })
  @ApiResponse({
    status: 400,
    description: 'A parameter is invalid, or the source cannot be imported from (the message says why).',
    schema: ERROR,
  })
  @ApiResponse({ status: 401, description: RESPONSE_TEXT[401], schema: ERROR })
  @ApiResponse({ status: 403, description: RESPONSE_TEXT[403], schema: ERROR })
  @ApiResponse({ status: 409, description: 'An import of this source is already running.', schema: ERROR })
  @Post()
  @HttpCode(202)
  async start(@Body() input: StartImportDto, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) res: Response) {
    const job = await this.jobs.start(input, ctx);
    res.setHeader('Location', `${ctx.api}/imports/${job.id}`);
    return job;
  }

  @ApiOperation({ summary: 'List import jobs', description: 'Returns the latest import jobs, newest first. Administrators only.' })
  @ApiResponse({ status: 200, description: RESPONSE_TEXT[200], schema: { $ref: getSchemaPath(ImportJobListResponse) } })
  @ApiResponse({ status: 401, description: RESPONSE_TEXT[401], schema: ERROR })
  @ApiResponse({ status: 403, description: RESPONSE_TEXT[403], schema: ERROR })
  @Get()
  list(@Ctx() ctx: RequestContext) {
    return this.jobs.list(ctx);
  }

  @ApiOperation({
    summary: 'Read an import job',
    description:
      'Returns the job with this ID: where it stands, its progress per list, its counts and, once over, whether everything read was imported. Administrators only.',
  })
  @ApiParam({ name: 'id', type: 'integer', required: true, description: 'ID of the import job.' })
  @ApiResponse({ status: 200, description: RESPONSE_TEXT[200], schema: JOB })
  @ApiResponse({ status: 400, description: RESPONSE_TEXT[400], schema: ERROR })
  @ApiResponse({ status: 401, description: RESPONSE_TEXT[401], schema: ERROR })
  @ApiResponse({ status: 403, description: RESPONSE_TEXT[403], schema: ERROR })
  @Get(':id')
  read(@PathId() id: number, @Ctx() ctx: RequestContext) {
    return this.jobs.read(id, ctx);
  }
}
