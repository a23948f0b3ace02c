import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataVersionEntity } from './data-version.entity.js';
import { ItemReadsFirst } from './item-reads-first.js';
import { DataVersionService } from './data-version.service.js';
import { ResponseCacheInterceptor } from './response-cache.js';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([DataVersionEntity])],
  providers: [DataVersionService, ItemReadsFirst, { provide: APP_INTERCEPTOR, useClass: ResponseCacheInterceptor }],
  exports: [DataVersionService, ItemReadsFirst],
})
export class CacheModule {}
