import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { lastValueFrom, of } from 'rxjs';
import { LastModifiedInterceptor } from './last-modified.interceptor.js';
import type { ChangeKind, ListLastChange } from './list-last-change.js';
import type { RegisteredRoute } from './request-context.js';

/** Runs the interceptor for a GET of `path` answering `body`; returns the Last-Modified it set. */
async function lastModified(path: string, scope: RegisteredRoute['scope'], body: unknown, change: Date | null, method = 'GET') {
  const asked: ChangeKind[] = [];
  const changes: ListLastChange = {
    lastChange: (kind) => {
      asked.push(kind);
      return Promise.resolve(change);
    },
  };
  const headers = new Map<string, string>();
  const req = { method, ctx: { route: { path, scope } } };
  const res = { setHeader: (name: string, value: string) => headers.set(name, value) };
  const context = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as unknown as ExecutionContext;
  const next: CallHandler = { handle: () => of(body) };
  expect(await lastValueFrom(new LastModifiedInterceptor(changes).intercept(context, next))).toBe(body);
  return { value: headers.get('Last-Modified'), asked };
}

const NEWER = new Date('2031-05-06T07:08:09Z');

describe('LastModifiedInterceptor', () => {
  it('dates a single item by its modified_utc, whatever the change log says', async () => {
    const result = await lastModified('events/:id', 'item', { modified_utc: '2030-01-02 03:04:05' }, NEWER);
    expect(result.value).toBe('Wed, 02 Jan 2030 03:04:05 GMT');
  });

  it('dates a list by its newest item combined with the change log', async () => {
    const body = { venues: [{ modified_utc: '2030-01-02 03:04:05' }, { modified_utc: '2030-03-02 03:04:05' }, { id: 9 }] };
    expect((await lastModified('venues', 'collection', body, null)).value).toBe('Sat, 02 Mar 2030 03:04:05 GMT');
    const withLog = await lastModified('venues', 'collection', body, NEWER);
    expect(withLog).toEqual({ value: NEWER.toUTCString(), asked: ['venues'] });
    expect((await lastModified('organizers', 'collection', { organizers: [] }, null)).value).toBeUndefined();
  });

  it('dates terms by the change log alone', async () => {
    expect(await lastModified('tags/:id', 'item', { id: 3 }, null)).toEqual({ value: undefined, asked: ['tags'] });
    expect((await lastModified('categories', 'collection', { categories: [] }, NEWER)).value).toBe(NEWER.toUTCString());
  });

  it('leaves writes and other routes alone', async () => {
    expect((await lastModified('events/:id', 'item', { modified_utc: '2030-01-02 03:04:05' }, null, 'PUT')).value).toBeUndefined();
    expect((await lastModified('events/:id/notes', 'collection', { notes: [] }, NEWER)).asked).toEqual([]);
  });
});
