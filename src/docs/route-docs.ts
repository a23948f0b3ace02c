import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';
import { ConditionalReadDoc, readAnswerHeaders } from '../common/openapi/route-doc.js';

/** `GET /doc`. The resource routes take theirs from `common/openapi/route-doc.ts`. */
export function DocumentDoc(): MethodDecorator {
  return applyDecorators(
    ApiOperation({ summary: 'OpenAPI document', description: 'Describes every route of this edition of the API.' }),
    ApiResponse({ status: 200, description: 'The OpenAPI document.', schema: { type: 'object' }, headers: readAnswerHeaders() }),
    ConditionalReadDoc(false),
  );
}
