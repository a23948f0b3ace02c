import { Global, Module } from '@nestjs/common';
import { MetricsAccessGuard } from './metrics-access.guard.js';
import { MetricsController } from './metrics.controller.js';
import { Metrics } from './metrics.js';

/**
 * The Prometheus endpoint `GET /metrics` and the registry behind it. Global, so that any module
 * defines its metrics where its values live (docs/OPERATIONS.md, "Metrics", lists them).
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [Metrics, MetricsAccessGuard],
  exports: [Metrics],
})
export class MetricsModule {}
