import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataVersionEntity } from './data-version.entity.js';
import { DataVersionService } from './data-version.service.js';
import { WriteVersionInterceptor } from './write-version.interceptor.js';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([DataVersionEntity])],
  providers: [DataVersionService, { provide: APP_INTERCEPTOR, useClass: WriteVersionInterceptor }],
  exports: [DataVersionService],
})
export class CacheModule {}
