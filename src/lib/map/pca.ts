// The two leading principal axes of a set of row vectors: the covariance (d × d) is formed once,
// then a two-vector subspace iteration on it, a Rayleigh–Ritz step to order and split the pair,
// and a fixed sign (each axis's largest-magnitude component positive), so the same vectors always
// give the same picture.
import { seededRandom } from '../analysis/seeded-random.ts';

export interface PcaResult {
  /** Row i's coordinates on the two axes: [x0, y0, x1, y1, …]. */
  coords: Float32Array;
  /** The two unit axes, d values each. */
  axes: [Float64Array, Float64Array];
  /** Share of the total variance on each axis. */
  explained: [number, number];
  iterations: number;
}

export interface PcaOptions {
  maxIterations?: number;
  /** Stop once both axes move less than this (1 − |cos| between iterations). */
  tolerance?: number;
}

function checkShape(vectors: Float32Array, n: number, dim: number): void {
  if (!Number.isInteger(n) || !Number.isInteger(dim) || n < 1 || dim < 1)
    throw new RangeError(`PCA needs n ≥ 1 rows of dim ≥ 1, got n=${n}, dim=${dim}`);
  if (vectors.length !== n * dim)
    throw new RangeError(`PCA: ${vectors.length} values are not ${n} rows × ${dim}`);
}

function columnMeans(vectors: Float32Array, n: number, dim: number): Float64Array {
  const mean = new Float64Array(dim);
  for (let i = 0; i < n; i++) for (let j = 0; j < dim; j++) mean[j] += vectors[i * dim + j];
  for (let j = 0; j < dim; j++) mean[j] /= n;
  return mean;
}

/** Upper and lower triangles filled: C[a][b] = mean over rows of (x_a − μ_a)(x_b − μ_b). */
function covariance(vectors: Float32Array, n: number, dim: number, mean: Float64Array) {
  const c = new Float64Array(dim * dim);
  const row = new Float64Array(dim);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < dim; j++) row[j] = vectors[i * dim + j] - mean[j];
    for (let a = 0; a < dim; a++) {
      const ra = row[a];
      if (ra === 0) continue;
      const base = a * dim;
      for (let b = a; b < dim; b++) c[base + b] += ra * row[b];
    }
  }
  for (let a = 0; a < dim; a++) {
    for (let b = a; b < dim; b++) {
      const v = c[a * dim + b] / n;
      c[a * dim + b] = v;
      c[b * dim + a] = v;
    }
  }
  return c;
}

function multiply(c: Float64Array, dim: number, v: Float64Array): Float64Array {
  const out = new Float64Array(dim);
  for (let a = 0; a < dim; a++) {
    let s = 0;
    const base = a * dim;
    for (let b = 0; b < dim; b++) s += c[base + b] * v[b];
    out[a] = s;
  }
  return out;
}

const dot = (a: Float64Array, b: Float64Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

function normalize(v: Float64Array): number {
  const norm = Math.sqrt(dot(v, v));
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] /= norm;
  return norm;
}

/** Gram–Schmidt on the pair; a vanished second vector is replaced by one orthogonal to the first. */
function orthonormalize(u: Float64Array, w: Float64Array): void {
  if (normalize(u) === 0) u[0] = 1;
  const p = dot(u, w);
  for (let i = 0; i < w.length; i++) w[i] -= p * u[i];
  if (normalize(w) < 1e-300) {
    w.fill(0);
    w[u.length > 1 && Math.abs(u[0]) > 0.5 ? 1 : 0] = 1;
    const q = dot(u, w);
    for (let i = 0; i < w.length; i++) w[i] -= q * u[i];
    normalize(w);
  }
}

/** Eigenvectors of the symmetric 2×2 [[a, b], [b, d]], larger eigenvalue first. */
function eigen2(a: number, b: number, d: number): { values: [number, number]; angle: number } {
  const half = (a - d) / 2;
  const r = Math.hypot(half, b);
  const mid = (a + d) / 2;
  return { values: [mid + r, mid - r], angle: 0.5 * Math.atan2(2 * b, a - d) };
}

function fixSign(v: Float64Array): void {
  let at = 0;
  for (let i = 1; i < v.length; i++) if (Math.abs(v[i]) > Math.abs(v[at])) at = i;
  if (v[at] < 0) for (let i = 0; i < v.length; i++) v[i] = -v[i];
}

/** Top two principal axes of `n` rows of `dim` values (row-major) and every row's coordinates. */
export function pca2(
  vectors: Float32Array,
  n: number,
  dim: number,
  options: PcaOptions = {},
): PcaResult {
  checkShape(vectors, n, dim);
  const maxIterations = options.maxIterations ?? 500;
  const tolerance = options.tolerance ?? 1e-12;
  const mean = columnMeans(vectors, n, dim);
  const c = covariance(vectors, n, dim, mean);
  let total = 0;
  for (let a = 0; a < dim; a++) total += c[a * dim + a];
  // A fixed start: the same stream in Node and every browser.
  const random = seededRandom(0x9ca);
  let u: Float64Array = Float64Array.from({ length: dim }, () => random() - 0.5);
  let w: Float64Array = Float64Array.from({ length: dim }, () => random() - 0.5);
  orthonormalize(u, w);
  let iterations = 0;
  while (iterations < maxIterations) {
    iterations++;
    const nu = multiply(c, dim, u);
    const nw = multiply(c, dim, w);
    orthonormalize(nu, nw);
    const moved = Math.max(1 - Math.abs(dot(nu, u)), 1 - Math.abs(dot(nw, w)));
    [u, w] = [nu, nw];
    if (moved < tolerance) break;
  }
  // Rayleigh–Ritz: the pair spans the plane; rotate within it onto the eigenvectors.
  const cu = multiply(c, dim, u);
  const cw = multiply(c, dim, w);
  const { values, angle } = eigen2(dot(u, cu), dot(u, cw), dot(w, cw));
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const first = u.map((x, i) => cos * x + sin * w[i]);
  const second = u.map((x, i) => -sin * x + cos * w[i]);
  fixSign(first);
  fixSign(second);
  const coords = new Float32Array(n * 2);
  for (let i = 0; i < n; i++) {
    let x = 0;
    let y = 0;
    for (let j = 0; j < dim; j++) {
      const v = vectors[i * dim + j] - mean[j];
      x += v * first[j];
      y += v * second[j];
    }
    coords[i * 2] = x;
    coords[i * 2 + 1] = y;
  }
  const share = (v: number) => (total > 0 ? Math.max(0, v) / total : 0);
  return {
    coords,
    axes: [first, second],
    explained: [share(values[0]), share(values[1])],
    iterations,
  };
}
