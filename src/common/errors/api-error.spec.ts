import { ApiError } from './api-error.js';
import { ErrorCode } from './error-codes.js';

describe('ApiError', () => {
  it('carries no stack frames below 500, keeps them for a 500, and leaves the process limit as it was', () => {
    const limit = Error.stackTraceLimit;
    const notFound = new ApiError(404, ErrorCode.EventNotFound, { id: 7 });
    const failed = new ApiError(500, ErrorCode.Internal);
    expect(notFound.stack?.split('\n').filter((line) => line.trim().startsWith('at '))).toEqual([]);
    expect(failed.stack?.split('\n').filter((line) => line.trim().startsWith('at ')).length).toBeGreaterThan(0);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('plain').stack?.split('\n').filter((line) => line.trim().startsWith('at ')).length).toBeGreaterThan(0);
    expect([notFound.status, notFound.code, notFound.message, notFound.args]).toEqual([
      404,
      ErrorCode.EventNotFound,
      ErrorCode.EventNotFound,
      { id: 7 },
    ]);
  });
});
