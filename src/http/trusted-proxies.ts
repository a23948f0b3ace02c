import proxyaddr from 'proxy-addr';

/** How many peer addresses the answer is kept for; more are checked each time. */
const KEPT = 1000;

/**
 * Express's `trust proxy` setting for `TRUST_PROXY`. A list of addresses and subnets (`loopback`,
 * `10.0.0.0/8, 192.168.1.1`) becomes proxy-addr's own check, with its answer kept per address: the
 * peers of a service are few (its proxies), and each request would otherwise parse the same address
 * again to find its client. A hop count or `true`/`false` needs no address parsed and stays as it is.
 */
export function trustedProxies(setting: boolean | number | string): boolean | number | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'string') return setting;
  const trusts = proxyaddr.compile(setting.split(',').map((part) => part.trim()));
  const known = new Map<string, boolean>();
  return (address, hop) => {
    let trusted = known.get(address);
    if (trusted === undefined) {
      trusted = trusts(address, hop);
      if (known.size < KEPT) known.set(address, trusted);
    }
    return trusted;
  };
}
