import type { OutgoingHttpHeader } from 'node:http';

/** A cached answer: the bytes and everything a hit or a revalidation replays with them. */
export interface Entry {
  version: string;
  body: Buffer;
  contentType: string;
  /** The answer's entity tag, computed once when it was built: a hit or a revalidation never hashes. */
  etag: string;
  lastModified: string | undefined;
  /** Representation headers (totals, links, truncation), replayed on a 200, names spelled as set. */
  headers: Array<[string, OutgoingHttpHeader]>;
}
