import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataVersionEntity } from './data-version.entity.js';
import { DataVersionService } from './data-version.service.js';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([DataVersionEntity])],
  providers: [DataVersionService],
  exports: [DataVersionService],
})
export class CacheModule {}
