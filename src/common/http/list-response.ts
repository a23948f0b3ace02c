import type { Response } from 'express';

export interface ListResult {
  headers: { total: number; totalPages: number };
  body: Record<string, unknown>;
}

/** Sends a list with the `X-TEC-Total`/`X-TEC-TotalPages` headers (spec §9.2). */
export function sendList(response: Response, result: ListResult): Record<string, unknown> {
  response.setHeader('X-TEC-Total', String(result.headers.total));
  response.setHeader('X-TEC-TotalPages', String(result.headers.totalPages));
  return result.body;
}

/** 201 with `Location` (spec §11.1). */
export function created(response: Response, location: string, body: Record<string, unknown>): Record<string, unknown> {
  response.status(201);
  response.setHeader('Location', location);
  return body;
}
