import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';

/**
 * Whether start-up is complete: the first administrator exists (`createFirstAdministrator`, which
 * `serve` calls once the server listens). Until then `/health/ready` is 503, so no load balancer sends
 * a write that would meet an empty user table.
 */
@Injectable()
export class StartupState {
  private complete = false;

  constructor(private readonly indicators: HealthIndicatorService) {}

  markComplete(): void {
    this.complete = true;
  }

  check(key: string) {
    const indicator = this.indicators.check(key);
    return this.complete ? indicator.up() : indicator.down({ message: 'start-up in progress (first administrator not created yet)' });
  }
}
