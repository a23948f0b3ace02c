import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { buildInfo } from '../build-info.js';
import { DatabaseHealthIndicator } from './database.health.js';
import { StartupState } from './startup-state.js';

/** Liveness and readiness, outside the API namespace. */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: DatabaseHealthIndicator,
    private readonly startup: StartupState,
  ) {}

  /** The process is up; which release it runs (version, and the commit it was built from or null). */
  @Get()
  @HealthCheck()
  async live() {
    const { version, commit } = buildInfo();
    return { ...(await this.health.check([])), version, commit };
  }

  /** Start-up is complete (the first administrator exists) and the database answers. */
  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([() => this.startup.check('startup'), () => this.database.check('database', 1500)]);
  }
}
