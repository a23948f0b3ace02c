/**
 * When the next attempt of a failing delivery is due: after the n-th failed attempt, about
 * `base × 5^(n−1)`, each wait drawn within ±20 % (jitter, so that receivers coming back are not hit by
 * every sender at once). With the default base of 5 s and 8 attempts: 5 s, 25 s, 2 min, 10 min,
 * 52 min, 4.3 h and 21.7 h, the last attempt about 27 hours after the first.
 */
export function retryDelayMs(failedAttempts: number, baseMs: number, random: () => number = Math.random): number {
  const nominal = baseMs * 5 ** Math.max(0, failedAttempts - 1);
  return Math.round(nominal * (0.8 + 0.4 * random()));
}
