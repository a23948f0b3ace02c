import type { Response } from 'express';

export interface ListResult<B extends object> {
  headers: { total: number; totalPages: number };
  body: B;
}

/** Sends a list with the `X-TEC-Total`/`X-TEC-TotalPages` headers (spec §9.2). */
export function sendList<B extends object>(response: Response, result: ListResult<B>): B {
  response.setHeader('X-TEC-Total', String(result.headers.total));
  response.setHeader('X-TEC-TotalPages', String(result.headers.totalPages));
  return result.body;
}

/** 201 with `Location` (spec §11.1). */
export function created<B extends object>(response: Response, location: string, body: B): B {
  response.status(201);
  response.setHeader('Location', location);
  return body;
}
