import { Module } from '@nestjs/common';
import { ROUTE_ANSWERS } from '../http/route-answers.js';
import { ApiDocumentService } from './api-document.service.js';
import { DocsController } from './docs.controller.js';
import { DocsPage } from './docs-page.js';

@Module({
  controllers: [DocsController],
  providers: [ApiDocumentService, DocsPage, { provide: ROUTE_ANSWERS, useExisting: ApiDocumentService }],
  exports: [ApiDocumentService, DocsPage, ROUTE_ANSWERS],
})
export class DocsModule {}
