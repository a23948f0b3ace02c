import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';

/** The query parameter that carries a feed token. */
export const FEED_TOKEN_PARAM = 'token';

/** Metadata of a handler that reads with the rights of a feed token's user; the route table reads it. */
export const ACCEPTS_FEED_TOKEN = Symbol('accepts-feed-token');

/**
 * Marks a read route on which `?token=<feed token>` authenticates the request (calendar apps cannot
 * send Basic credentials), and documents the parameter. On every other route `token` is an unknown
 * parameter and ignored, as any other (spec §7.1).
 */
export function AcceptsFeedToken(): MethodDecorator {
  return applyDecorators(
    SetMetadata(ACCEPTS_FEED_TOKEN, true),
    ApiQuery({
      name: FEED_TOKEN_PARAM,
      required: false,
      schema: { type: 'string' },
      description:
        "Feed token of a user, for calendar apps that cannot send Basic credentials: the calendar is read with that user's rights. An unknown or revoked token answers 401.",
    }),
  );
}
