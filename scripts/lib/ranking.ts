// Cosine rankings over row-major unit vectors, for comparing engines rank for rank.
export interface Matrix {
  vectors: ArrayLike<number>;
  dim: number;
}

export function row(m: Matrix, i: number): Float64Array {
  return Float64Array.from({ length: m.dim }, (_, d) => m.vectors[i * m.dim + d]);
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let d = 0; d < a.length; d++) {
    dot += a[d] * b[d];
    na += a[d] * a[d];
    nb += b[d] * b[d];
  }
  return dot / Math.sqrt(na * nb);
}

/** Per-row cosine between two embeddings of the same texts. */
export function rowCosines(a: Matrix, b: Matrix): number[] {
  const n = a.vectors.length / a.dim;
  return Array.from({ length: n }, (_, i) => cosine(row(a, i), row(b, i)));
}

/** The `k` document indices with the highest cosine to each query, best first. */
export function topK(queries: Matrix, docs: Matrix, k: number): number[][] {
  const nq = queries.vectors.length / queries.dim;
  const nd = docs.vectors.length / docs.dim;
  const docRows = Array.from({ length: nd }, (_, j) => row(docs, j));
  return Array.from({ length: nq }, (_, i) => {
    const q = row(queries, i);
    const scored = docRows.map((d, j) => ({ j, s: cosine(q, d) }));
    scored.sort((x, y) => y.s - x.s || x.j - y.j);
    return scored.slice(0, k).map((x) => x.j);
  });
}

export function quantiles(values: readonly number[], qs: readonly number[]): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  return qs.map((q) => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))]);
}

/** The given rows of `m`, in that order. */
export function selectRows(m: Matrix, rows: readonly number[]): Matrix {
  const vectors = new Float32Array(rows.length * m.dim);
  rows.forEach((r, i) => {
    for (let d = 0; d < m.dim; d++) vectors[i * m.dim + d] = m.vectors[r * m.dim + d];
  });
  return { vectors, dim: m.dim };
}
