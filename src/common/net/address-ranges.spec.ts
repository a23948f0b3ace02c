import { addressRange, isAllowedTarget, mappedIpv4 } from './address-ranges.js';

const strict = { allowAll: false, allow: [] };

describe('addressRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:10.1.2.3', 'private'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:100.64.0.1', 'shared'],
    ['::127.0.0.1', 'embedded-ipv4'],
    ['64:ff9b::a00:1', 'embedded-ipv4'],
    ['2002:a00:1::1', 'embedded-ipv4'],
    ['not an address', 'reserved'],
  ])('%s is %s', (address, range) => {
    expect(addressRange(address)).toBe(range);
  });

  it.each(['8.8.8.8', '93.184.215.14', '172.32.0.1', '100.128.0.1', '11.0.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '::ffff:808:808'])(
    '%s is public',
    (address) => {
      expect(addressRange(address)).toBeNull();
    },
  );

  it('reads the IPv4 address of a mapped IPv6 address in both notations', () => {
    expect(mappedIpv4('::ffff:192.168.0.1')).toBe('192.168.0.1');
    expect(mappedIpv4('::ffff:c0a8:1')).toBe('192.168.0.1');
    expect(mappedIpv4('0:0:0:0:0:ffff:c0a8:0001')).toBe('192.168.0.1');
    expect(mappedIpv4('::1')).toBeNull();
    expect(mappedIpv4('10.0.0.1')).toBeNull();
  });
});

describe('isAllowedTarget', () => {
  it('allows public addresses always and non-public ones only when the setting says so', () => {
    expect(isAllowedTarget('8.8.8.8', 443, strict)).toBe(true);
    expect(isAllowedTarget('127.0.0.1', 80, strict)).toBe(false);
    expect(isAllowedTarget('::ffff:127.0.0.1', 80, strict)).toBe(false);
    expect(isAllowedTarget('127.0.0.1', 80, { allowAll: true, allow: [] })).toBe(true);
  });

  it('allows the networks and ports of the allow-list, IPv4 rules matching mapped addresses too', () => {
    const policy = {
      allowAll: false,
      allow: [
        { network: '10.1.0.0', prefix: 16, family: 4 as const, port: null },
        { network: '127.0.0.1', prefix: 32, family: 4 as const, port: 8080 },
        { network: 'fd00::', prefix: 8, family: 6 as const, port: 443 },
      ],
    };
    expect(isAllowedTarget('10.1.200.3', 5432, policy)).toBe(true);
    expect(isAllowedTarget('::ffff:10.1.200.3', 80, policy)).toBe(true);
    expect(isAllowedTarget('10.2.0.1', 80, policy)).toBe(false);
    expect(isAllowedTarget('127.0.0.1', 8080, policy)).toBe(true);
    expect(isAllowedTarget('127.0.0.1', 8081, policy)).toBe(false);
    expect(isAllowedTarget('127.0.0.2', 8080, policy)).toBe(false);
    expect(isAllowedTarget('fd00::5', 443, policy)).toBe(true);
    expect(isAllowedTarget('fd00::5', 80, policy)).toBe(false);
    expect(isAllowedTarget('::1', 443, policy)).toBe(false);
  });
});
