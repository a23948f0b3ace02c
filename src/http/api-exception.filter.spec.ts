import type { Logger } from '@nestjs/common';
import { jest } from '@jest/globals';
import { ApiError } from '../common/errors/api-error.js';
import { toApiError } from './api-exception.filter.js';

describe('toApiError', () => {
  const logger = () => {
    const error = jest.fn();
    return { error, warn: jest.fn(), logger: { error, warn: jest.fn() } as unknown as Logger };
  };

  it('logs an unexpected failure with the id of its request, and answers 500 without details', () => {
    const { error, logger: log } = logger();
    const answer = toApiError(new Error('disk on fire'), log, 42);
    expect(answer).toBeInstanceOf(ApiError);
    expect(answer.status).toBe(500);
    expect(error).toHaveBeenCalledTimes(1);
    const [line] = error.mock.calls[0] as [{ reqId: unknown; msg: string }];
    expect(line.reqId).toBe(42);
    expect(line.msg).toMatch(/^Error: disk on fire\n\s+at /);
  });

  it('logs the failure alone when there is no request id (the request log is off)', () => {
    const { error, logger: log } = logger();
    toApiError('plain text', log);
    expect(error).toHaveBeenCalledWith('plain text');
  });

  it('logs nothing for the errors of the contract', () => {
    const { error, logger: log } = logger();
    expect(toApiError(ApiError.noRoute(), log, 1).status).toBe(404);
    expect(error).not.toHaveBeenCalled();
  });
});
