import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataVersionEntity } from './data-version.entity.js';
import { DataVersionService } from './data-version.service.js';
import { ResponseCacheInterceptor } from './response-cache.js';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([DataVersionEntity])],
  providers: [DataVersionService, { provide: APP_INTERCEPTOR, useClass: ResponseCacheInterceptor }],
  exports: [DataVersionService],
})
export class CacheModule {}
