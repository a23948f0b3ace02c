import { Module } from '@nestjs/common';
import { ApiDocumentService } from './api-document.service.js';
import { DocsController } from './docs.controller.js';
import { DocsPage } from './docs-page.js';
import { NamespaceController } from './namespace.controller.js';

@Module({
  controllers: [DocsController, NamespaceController],
  providers: [ApiDocumentService, DocsPage],
  exports: [ApiDocumentService, DocsPage],
})
export class DocsModule {}
