/** mulberry32's state after one step; with `uniformOfState`, a draw that a hot loop can inline. */
export const nextSeedState = (state: number): number => (state + 0x6d2b79f5) >>> 0;

/** The uniform number in [0, 1) that mulberry32 gives for a state. */
export function uniformOfState(state: number): number {
  let t = Math.imul(state ^ (state >>> 15), state | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** mulberry32: a small, fast, seeded generator of uniform numbers in [0, 1), the same stream in Node and every browser. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = nextSeedState(state);
    return uniformOfState(state);
  };
}
