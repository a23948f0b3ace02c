import { ApiError } from '../errors/api-error.js';
import { ErrorCode } from '../errors/error-codes.js';
import { parseQueryString } from './body.js';
import { apiRootLink, entityTag, matchHits, parseTagList } from './entity-tags.js';
import type { RequestContext } from './request-context.js';

/** 412 `rest_precondition_failed` (RFC 9110 §13.1.1): the write was not made. */
export function preconditionFailed(): ApiError {
  return new ApiError(412, ErrorCode.PreconditionFailed);
}

/**
 * The `If-Match` of a write of one item (update or delete by id or slug). Services evaluate it after
 * validation and permission and before the handler's own checks (docs/API.md, "Conditional
 * requests"), against the entity tag a `GET` of the same URL by the same requester would answer
 * now, computed by the same function the answers use ({@link entityTag}).
 */
export class IfMatch {
  private constructor(
    private readonly field: string,
    private readonly ctx: RequestContext,
  ) {}

  /** The condition of the request, or null when it sent no `If-Match`. */
  static of(ctx: RequestContext): IfMatch | null {
    return ctx.ifMatch === null ? null : new IfMatch(ctx.ifMatch, ctx);
  }

  /** The `password` of the request URL, as a `GET` of the same URL would send it. */
  get password(): string | undefined {
    const search = this.ctx.target?.search ?? '';
    if (!search.includes('password=')) return undefined;
    const value = parseQueryString(search).password;
    return typeof value === 'string' ? value : undefined;
  }

  /**
   * Passes when the field is `*` (the caller has found the record) or lists, strongly compared, the
   * tag of what `render` answers: the body the `GET` handler returns for this requester. A render
   * that fails (the `GET` would not answer 200: trashed, unreadable, locked) or a tag not listed
   * throws 412.
   */
  async assert(render: () => Promise<unknown>): Promise<void> {
    if (parseTagList(this.field) === '*') return;
    let body: unknown;
    try {
      body = await render();
    } catch (error) {
      if (error instanceof ApiError) throw preconditionFailed();
      throw error;
    }
    // a single item's answer carries no representation header but the API root link (see entityTag)
    const link = apiRootLink(this.ctx.base);
    const etag = entityTag(Buffer.from(JSON.stringify(body)), (name) => (name === 'link' ? link : undefined));
    if (!matchHits(this.field, etag)) throw preconditionFailed();
  }
}
