import { writesRequestLines } from './request-log.middleware.js';

describe('writesRequestLines', () => {
  it('is true where pino-http writes its info lines, with request lines on', () => {
    for (const level of ['info', 'debug', 'trace'] as const) expect(writesRequestLines({ level, requests: true })).toBe(true);
    for (const level of ['warn', 'error', 'fatal', 'silent'] as const) expect(writesRequestLines({ level, requests: true })).toBe(false);
    expect(writesRequestLines({ level: 'info', requests: false })).toBe(false);
  });
});
