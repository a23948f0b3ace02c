import { Controller, Delete, Get, Patch, Post, Put, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { ApiRoutes } from '../common/http/api-routes.js';
import { TecAcknowledgement } from './tec-acknowledgement.js';
import { TEC_NAMESPACE } from './tec-docs.service.js';

/**
 * `tec/v1/tickets`: the reference serves them only with its Event Tickets plugin; this service has
 * no tickets, and says so plainly (501) to the clients that ask, such as the vendor's MCP server.
 */
@ApiExcludeController()
@ApiRoutes(TEC_NAMESPACE)
@UseGuards(TecAcknowledgement)
@Controller(`${TEC_NAMESPACE}/tickets`)
export class TecTicketsController {
  @Get()
  list(): never {
    throw unsupported();
  }

  @Post()
  create(): never {
    throw unsupported();
  }

  @Get(':id')
  read(): never {
    throw unsupported();
  }

  @Put(':id')
  put(): never {
    throw unsupported();
  }

  @Patch(':id')
  patch(): never {
    throw unsupported();
  }

  @Delete(':id')
  remove(): never {
    throw unsupported();
  }
}

function unsupported(): ApiError {
  return new ApiError(501, ErrorCode.TecTicketsUnsupported);
}
