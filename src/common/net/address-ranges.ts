import { BlockList, isIP } from 'node:net';
import type { OutboundConfig } from '../../config/app-config.js';

/** Why an address is not public. */
export type AddressRange =
  'unspecified' | 'loopback' | 'private' | 'shared' | 'link-local' | 'unique-local' | 'multicast' | 'reserved' | 'embedded-ipv4';

const V4_RANGES: Array<[string, number, AddressRange]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

// IPv4-mapped addresses (::ffff:a.b.c.d) are classified by their IPv4 address, before these
const V6_RANGES: Array<[string, number, AddressRange]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'embedded-ipv4'],
  ['64:ff9b::', 96, 'embedded-ipv4'],
  ['64:ff9b:1::', 48, 'embedded-ipv4'],
  ['100::', 64, 'reserved'],
  ['2001:db8::', 32, 'reserved'],
  ['2002::', 16, 'embedded-ipv4'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'link-local'],
  ['ff00::', 8, 'multicast'],
];

function blockList(family: 'ipv4' | 'ipv6', ranges: Array<[string, number, AddressRange]>): Array<[BlockList, AddressRange]> {
  return ranges.map(([network, prefix, range]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return [list, range];
  });
}

const V4 = blockList('ipv4', V4_RANGES);
const V6 = blockList('ipv6', V6_RANGES);
const MAPPED = new BlockList();
MAPPED.addSubnet('::ffff:0:0', 96, 'ipv6');

/** The IPv4 address an IPv4-mapped IPv6 address stands for (`::ffff:127.0.0.1`, `::ffff:7f00:1`); null for any other. */
export function mappedIpv4(address: string): string | null {
  if (isIP(address) !== 6 || !MAPPED.check(address, 'ipv6')) return null;
  const dotted = /:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) return dotted[1];
  const groups = /:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!groups) return null;
  const high = parseInt(groups[1], 16);
  const low = parseInt(groups[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * The non-public range an IP address belongs to, or null for a public address. An IPv4-mapped
 * IPv6 address is classified as its IPv4 address; the other IPv6 forms that embed an IPv4 address
 * (IPv4-compatible, NAT64, 6to4) are never public, since they could lead to any of them.
 * Not an IP address: `reserved`.
 */
export function addressRange(scoped: string): AddressRange | null {
  // a zone (fe80::1%eth0) says which interface, not which address
  const address = scoped.replace(/%.*$/, '');
  const family = isIP(address);
  if (family === 0) return 'reserved';
  const v4 = family === 4 ? address : mappedIpv4(address);
  if (v4 !== null) return V4.find(([list]) => list.check(v4, 'ipv4'))?.[1] ?? null;
  return V6.find(([list]) => list.check(address, 'ipv6'))?.[1] ?? null;
}

/** Whether an outbound request may connect to `address` on `port` under the operator's setting. */
export function isAllowedTarget(scoped: string, port: number, policy: OutboundConfig): boolean {
  if (policy.allowAll || addressRange(scoped) === null) return true;
  const address = scoped.replace(/%.*$/, '');
  const v4 = isIP(address) === 4 ? address : mappedIpv4(address);
  return policy.allow.some((allowance) => {
    if (allowance.port !== null && allowance.port !== port) return false;
    const list = new BlockList();
    list.addSubnet(allowance.network, allowance.prefix, allowance.family === 4 ? 'ipv4' : 'ipv6');
    return allowance.family === 4 ? v4 !== null && list.check(v4, 'ipv4') : list.check(address, 'ipv6');
  });
}
