import { Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { ApiValidationPipe } from '../common/validation/api-validation.pipe.js';
import { ApiExceptionFilter } from './api-exception.filter.js';
import { OtherNamespaces } from './other-namespaces.js';
import { RouteRegistry } from './route-registry.js';

/**
 * The parts of the request lifecycle that belong to no resource: the route table read from the
 * controllers (and the descriptions of the namespaces served beside the configured one), validation
 * (`APP_PIPE`) and the one error answer (`APP_FILTER`); the `Allow` header of a successful answer is
 * set where answers are written (`ApiExpressAdapter.reply`). Its middleware (body, route, security
 * headers) is applied, in the order of spec §4.6, by `AppModule`.
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [
    RouteRegistry,
    OtherNamespaces,
    { provide: APP_PIPE, useClass: ApiValidationPipe },
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
  ],
  exports: [RouteRegistry, OtherNamespaces],
})
export class HttpModule {}
