import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Request } from 'express';
import type { ApiConfig } from '../config/app-config.js';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode, MESSAGE_VARIANTS } from '../common/errors/error-codes.js';

/** The sentence the reference wants in `X-TEC-EEA` on its experimental routes, word for word. */
export const TEC_ACKNOWLEDGEMENT =
  'I understand that this endpoint is experimental and may change in a future release without maintaining backward compatibility. I also understand that I am using this endpoint at my own risk, while support is not provided for it.';

/**
 * The acknowledgement header of `tec/v1` (off with `TEC_V1_REQUIRE_ACKNOWLEDGEMENT=false`). The
 * reference checks it after argument validation, credentials and the permission, so the routes
 * call {@link check} at that point of their work; the guard, which runs before the response cache,
 * only marks a request without it as one whose answer no shared copy may give.
 */
@Injectable()
export class TecAcknowledgement implements CanActivate {
  private readonly required: boolean;

  constructor(@Inject(ConfigService) config: ConfigService) {
    this.required = config.getOrThrow<ApiConfig>('api').tecV1Acknowledgement;
  }

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    if (this.problem(req) !== null) req.ctx.unshared = true;
    return true;
  }

  /** Refuses a request without the acknowledgement (400), when the setting wants it. */
  check(req: Request): void {
    const problem = this.problem(req);
    if (problem === 'missing') throw new ApiError(400, ErrorCode.TecAcknowledgementMissing);
    if (problem === 'wrong') {
      throw new ApiError(400, ErrorCode.TecAcknowledgementMissing, {}, { messageKey: MESSAGE_VARIANTS.tecAcknowledgementWrong });
    }
  }

  private problem(req: Request): 'missing' | 'wrong' | null {
    if (!this.required) return null;
    const sent = req.headers['x-tec-eea'];
    if (sent === undefined) return 'missing';
    return sent === TEC_ACKNOWLEDGEMENT ? null : 'wrong';
  }
}
