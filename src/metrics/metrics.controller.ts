import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { TextAnswer } from '../common/http/text-answer.js';
import { MetricsAccessGuard } from './metrics-access.guard.js';
import { Metrics } from './metrics.js';

/**
 * `GET /metrics`: the Prometheus text format, outside the API namespace and its editions like
 * `/health`, through the whole request lifecycle like every route. Never cached: the response cache
 * serves API routes only, and the answer says `Cache-Control: no-store` (set by the guard).
 */
@ApiExcludeController()
@Controller('metrics')
@UseGuards(MetricsAccessGuard)
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get()
  async scrape(): Promise<TextAnswer> {
    const { text, contentType } = await this.metrics.render();
    return new TextAnswer(text, contentType);
  }
}
