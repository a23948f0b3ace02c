import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { ApiConfig, HttpConfig } from '../config/app-config.js';
import { Editions } from './editions.js';

@Global()
@Module({
  providers: [
    {
      provide: Editions,
      inject: [ConfigService],
      useFactory: (config: ConfigService) =>
        new Editions({ http: config.getOrThrow<HttpConfig>('http'), api: config.getOrThrow<ApiConfig>('api') }),
    },
  ],
  exports: [Editions],
})
export class EditionsModule {}
