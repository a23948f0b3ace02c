import type { OutboundConfig } from '../config/app-config.js';
import { OutboundError, resolveOutbound } from '../common/net/outbound-target.js';

export { literalAddress } from '../common/net/outbound-target.js';

/** Longest target URL accepted. */
export const TARGET_URL_MAX = 2048;

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

/**
 * Every address of the target's host, each checked by the outbound guard (`OUTBOUND_ALLOW_PRIVATE`):
 * the same check as every delivery attempt makes again.
 */
export async function resolveTarget(url: URL, policy: OutboundConfig): Promise<void> {
  try {
    await resolveOutbound(url, policy);
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    throw new TargetRefused(error.problem === 'unresolvable' ? 'webhook_unresolvable' : 'webhook_target', error.message);
  }
}

/** What refuses a target (`resolveTarget`'s problem), null when the guard lets it through; any other failure is thrown. */
export async function targetProblem(url: URL, policy: OutboundConfig): Promise<TargetProblem | null> {
  try {
    await resolveTarget(url, policy);
    return null;
  } catch (error) {
    if (error instanceof TargetRefused) return error.problem;
    throw error;
  }
}
