import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { RouteRegistry } from '../common/http/route-registry.js';
import { ApiDocumentService } from './api-document.service.js';
import { DocsController } from './docs.controller.js';

@Module({
  imports: [DiscoveryModule],
  controllers: [DocsController],
  providers: [RouteRegistry, ApiDocumentService],
  exports: [RouteRegistry, ApiDocumentService],
})
export class DocsModule {}
