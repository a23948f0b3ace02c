import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Longest target URL accepted. */
export const TARGET_URL_MAX = 2048;

/**
 * Addresses a webhook may not reach unless the operator allows private targets: unspecified,
 * loopback, private, shared (CGNAT), link-local, multicast and reserved ranges, and the IPv6 forms
 * that embed an IPv4 address (mapped, NAT64, 6to4), which could lead to any of them.
 */
// two lists: Node checks an IPv4 address against IPv6 rules as its mapped form (::ffff:a.b.c.d)
const REFUSED_V4 = new BlockList();
const REFUSED_V6 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  REFUSED_V4.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  REFUSED_V6.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is one a webhook may reach without `WEBHOOK_ALLOW_PRIVATE_TARGETS`. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return family === 4 ? !REFUSED_V4.check(address, 'ipv4') : !REFUSED_V6.check(address, 'ipv6');
}

/** Why a target is refused: not an http(s) URL, not a public address, or a name that does not resolve. */
export type TargetProblem = 'webhook_url' | 'webhook_target' | 'webhook_unresolvable';

export class TargetRefused extends Error {
  constructor(
    readonly problem: TargetProblem,
    message: string,
  ) {
    super(message);
  }
}

/** The URL if it is an absolute http or https URL without credentials; null otherwise. */
export function parseTargetUrl(raw: string): URL | null {
  if (raw.length > TARGET_URL_MAX || /\s/.test(raw)) return null;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username || url.password || !url.hostname) return null;
    return url;
  } catch {
    return null;
  }
}

/** The host of a URL as an IP address literal (brackets of IPv6 removed), or null for a name. */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? host : null;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Every address the target's host stands for, each checked: one refused address refuses the target
 * (a name that resolves to a public and a private address could be steered to the private one).
 * The sender connects to the first of them, so no second resolution can change the answer.
 */
export async function resolveTarget(url: URL, allowPrivate: boolean): Promise<ResolvedAddress[]> {
  const literal = literalAddress(url);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: literal, family: isIP(literal) as 4 | 6 }];
  } else {
    try {
      const found = await lookup(url.hostname, { all: true, verbatim: true });
      addresses = found.map((entry) => ({ address: entry.address, family: entry.family as 4 | 6 }));
    } catch (error) {
      throw new TargetRefused(
        'webhook_unresolvable',
        `The host ${url.hostname} could not be resolved (${(error as { code?: string }).code ?? 'error'}).`,
      );
    }
    if (addresses.length === 0) throw new TargetRefused('webhook_unresolvable', `The host ${url.hostname} has no address.`);
  }
  if (!allowPrivate) {
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused) {
      throw new TargetRefused(
        'webhook_target',
        `The address ${refused.address} of ${url.hostname} is not public (private, loopback, link-local, multicast or reserved).`,
      );
    }
  }
  return addresses;
}
