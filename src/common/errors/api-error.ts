import { ErrorCode, type ExtensionErrorCode } from './error-codes.js';

/** One invalid parameter: which one, the message key (namespace `params`) and its arguments. */
export interface ParamProblem {
  param: string;
  key: string;
  args?: Record<string, string | number>;
  /** Adds a `data.details` entry: `rest_invalid_type` for type errors, or a specific reason code. */
  detailsCode?: string;
  /**
   * `argument`: the entry's `data` as the reference's `tec/v1` writes it (`{status, argument,
   * details}`) instead of `{param}`.
   */
  detailsForm?: 'argument';
}

export interface ApiErrorExtra {
  problems?: ParamProblem[];
  missing?: string[];
  termId?: number;
  retryAfterSeconds?: number;
  /** A variant of the code's message: a key of `errors.json` that starts with the code (see `MESSAGE_VARIANTS`). */
  messageKey?: string;
}

/**
 * Every failure the API reports. Rendered by the global exception filter as
 * `{code, message, data: {status, ...}}` with the message in the edition's language.
 *
 * An answer below 500 is about the request (a wrong id, a bad parameter, no credentials): such an
 * error carries no stack, whose capture was the largest single cost of a 404.
 * A 500 keeps its stack.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | ExtensionErrorCode,
    readonly args: Record<string, string | number> = {},
    readonly extra: ApiErrorExtra = {},
  ) {
    const stackFrames = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    super(code);
    Error.stackTraceLimit = stackFrames;
  }

  static noRoute(): ApiError {
    return new ApiError(404, ErrorCode.NoRoute);
  }

  static invalidParams(problems: ParamProblem[]): ApiError {
    return new ApiError(400, ErrorCode.InvalidParam, { params: problems.map((p) => p.param).join(', ') }, { problems });
  }

  static invalidParam(param: string, key: string, args?: ParamProblem['args'], detailsCode?: string): ApiError {
    return ApiError.invalidParams([{ param, key, args, detailsCode }]);
  }

  static missingParams(names: string[]): ApiError {
    return new ApiError(400, ErrorCode.MissingParam, { params: names.join(', ') }, { missing: names });
  }

  /** 401 for anonymous requests, 403 for authenticated ones (spec §4.6 step 7). */
  static forbidden(authenticated: boolean): ApiError {
    return new ApiError(authenticated ? 403 : 401, ErrorCode.Forbidden);
  }
}

/** Where the validation pipe leaves the problems of a DTO for its service (see CollectsProblems). */
export const PROBLEMS = Symbol('param-problems');

/** Collects parameter problems so that one request reports all of them at once (spec §7.7). */
export class ParamProblems {
  private readonly problems: ParamProblem[] = [];

  /** Starts with the problems the validation pipe already found in `dto` (see CollectsProblems). */
  static from(dto: object): ParamProblems {
    const collected = new ParamProblems();
    const found = (dto as Record<symbol, unknown>)[PROBLEMS] as ParamProblem[] | undefined;
    for (const problem of found ?? []) collected.problems.push(problem);
    return collected;
  }

  add(param: string, key: string, args?: ParamProblem['args'], detailsCode?: string): void {
    if (!this.problems.some((problem) => problem.param === param)) this.problems.push({ param, key, args, detailsCode });
  }

  has(param: string): boolean {
    return this.problems.some((problem) => problem.param === param);
  }

  get empty(): boolean {
    return this.problems.length === 0;
  }

  /** Throws the collected problems ordered as `order` lists the parameters. */
  throwIfAny(order: readonly string[] = []): void {
    if (this.empty) return;
    const rank = (param: string) => {
      const index = order.indexOf(param);
      return index === -1 ? order.length : index;
    };
    throw ApiError.invalidParams([...this.problems].sort((a, b) => rank(a.param) - rank(b.param)));
  }
}
