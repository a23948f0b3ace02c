/**
 * `count` texts, each of fewer than `maxPieces` pieces drawn from `pieces`, by a seeded linear
 * congruential generator: the same texts on every run, for comparing two implementations on many
 * inputs.
 */
export function randomTexts(pieces: readonly string[], count: number, maxPieces: number, seed: number): string[] {
  let state = seed;
  const next = (): number => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, () => {
    let text = '';
    const length = Math.floor(next() * maxPieces);
    for (let i = 0; i < length; i++) text += pieces[Math.floor(next() * pieces.length)];
    return text;
  });
}
