import { isIP } from 'node:net';
import { ConfigError, flag, type EnvReader } from './env-values.js';

/** One network the operator lets outbound requests reach although it is not public, optionally on one port only. */
export interface OutboundAllowance {
  /** The network's address, as written (IPv6 without brackets). */
  network: string;
  prefix: number;
  family: 4 | 6;
  /** The only port allowed on that network; null: every port. */
  port: number | null;
}

/** What the service may fetch: imports from a source site, webhook deliveries (`OUTBOUND_ALLOW_PRIVATE`). */
export interface OutboundConfig {
  /** Every address allowed (`OUTBOUND_ALLOW_PRIVATE=true`): tests, or a service inside a trusted network. */
  allowAll: boolean;
  /** Non-public networks allowed (`OUTBOUND_ALLOW_PRIVATE=10.1.0.0/16,127.0.0.1:8080`); empty: none. */
  allow: OutboundAllowance[];
}

const FLAG_WORDS = ['1', 'true', 'yes', 'on', '0', 'false', 'no', 'off'];
const PROBLEM =
  'must be true, false or a comma-separated list of addresses or networks, each with an optional port (10.1.0.0/16, 127.0.0.1:8080, [fd00::/8]:443)';

/**
 * `OUTBOUND_ALLOW_PRIVATE`: `false` (default) refuses loopback, private, link-local and the other
 * non-public addresses for every outbound request; `true` allows them all; a list allows only the
 * networks (and ports) it names. `WEBHOOK_ALLOW_PRIVATE_TARGETS`, its older name, is read when it is unset.
 */
export function readOutboundConfig(read: EnvReader): OutboundConfig {
  const name = read('OUTBOUND_ALLOW_PRIVATE') !== undefined ? 'OUTBOUND_ALLOW_PRIVATE' : 'WEBHOOK_ALLOW_PRIVATE_TARGETS';
  const raw = read(name) ?? 'false';
  if (name !== 'OUTBOUND_ALLOW_PRIVATE' || FLAG_WORDS.includes(raw.toLowerCase())) return { allowAll: flag(raw, name), allow: [] };
  return { allowAll: false, allow: raw.split(',').map((entry) => parseAllowance(entry.trim(), name)) };
}

function parseAllowance(entry: string, name: string): OutboundAllowance {
  // [v6 or v6/prefix]:port, v4 or v4/prefix with an optional :port, or a bare v6 (or v6/prefix)
  const match = /^\[([^\]]+)\]:(\d+)$/.exec(entry) ?? /^([\d.]+(?:\/\d+)?):(\d+)$/.exec(entry) ?? /^([^[\]]+)()$/.exec(entry);
  if (!match) throw new ConfigError(name, PROBLEM);
  const [network, prefixText] = match[1].split('/');
  const family = isIP(network);
  if (family === 0 || match[1].split('/').length > 2) throw new ConfigError(name, PROBLEM);
  const max = family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d+$/.test(prefixText) ? Number(prefixText) : -1;
  const port = match[2] ? Number(match[2]) : null;
  if (prefix < 0 || prefix > max || (port !== null && (port < 1 || port > 65535))) throw new ConfigError(name, PROBLEM);
  return { network, prefix, family: family as 4 | 6, port };
}
