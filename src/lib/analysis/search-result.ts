// What a dense search returns, exact (dense-search.ts) or screened (screened-search.ts).
export interface SearchResult {
  k: number;
  queries: number;
  /** Row indices, `k` per query (fewer when the matrix has fewer rows), best first. */
  indices: Int32Array;
  scores: Float64Array;
  /** Per query, how many rows rank before its target (0 = first); empty without targets. */
  targetRanks: Int32Array;
  targetScores: Float64Array;
  /** Per query, the mean score over all rows. */
  meanScores: Float64Array;
  stats: {
    slices: number;
    longestSliceMs: number;
    elapsedMs: number;
    /** The integer screen only: query × row scores recomputed in float32 (top-k and target). */
    rescored?: number;
  };
}
