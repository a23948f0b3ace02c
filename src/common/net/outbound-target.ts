import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { OutboundConfig } from '../../config/app-config.js';
import { isAllowedTarget } from './address-ranges.js';

/** Why an outbound request did not get an answer. Its message names no address and nothing that answered. */
export type OutboundProblem = 'url' | 'not_allowed' | 'unresolvable' | 'unreachable' | 'timeout' | 'too_large' | 'redirects';

export class OutboundError extends Error {
  constructor(
    readonly problem: OutboundProblem,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export const NOT_ALLOWED_MESSAGE =
  'the address is not allowed: it is not public (loopback, private, link-local or reserved), and OUTBOUND_ALLOW_PRIVATE does not allow it';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** The URL if it is an absolute http or https URL; null otherwise. */
export function parseOutboundUrl(raw: string | URL): URL | null {
  try {
    const url = new URL(raw);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url : null;
  } catch {
    return null;
  }
}

/** The port a URL connects to. */
export function urlPort(url: URL): number {
  return url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** The host of a URL as an IP address literal (brackets of IPv6 removed), or null for a name. */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? host : null;
}

/**
 * Every address the URL's host stands for (a name is looked up now, all its addresses), each
 * checked against the operator's setting: one refused address refuses the URL, since a name that
 * resolves to a public and a private address could be steered to the private one. The request
 * then connects only to these addresses, so no second lookup can change the answer.
 */
export async function resolveOutbound(url: URL, policy: OutboundConfig): Promise<ResolvedAddress[]> {
  const literal = literalAddress(url);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: literal, family: isIP(literal) as 4 | 6 }];
  } else {
    try {
      const found = await lookup(url.hostname, { all: true, verbatim: true });
      addresses = found.map((entry) => ({ address: entry.address, family: entry.family as 4 | 6 }));
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) throw new OutboundError('unresolvable', `the host ${url.hostname} could not be resolved`);
  }
  const port = urlPort(url);
  if (addresses.some((entry) => !isAllowedTarget(entry.address, port, policy))) throw new OutboundError('not_allowed', NOT_ALLOWED_MESSAGE);
  return addresses;
}
