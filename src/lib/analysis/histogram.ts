import { quantileSorted, sampleStd, sortedAscending } from './stats.ts';

export interface HistogramOptions {
  min: number;
  max: number;
  bins: number;
  /** Normalise so that sum(density_i * width_i) = 1 over the in-range values. */
  density?: boolean;
}

export interface Histogram {
  /** Length bins + 1; edges[0] = min and edges[bins] = max exactly. */
  edges: number[];
  counts: number[];
  /** Present only with `density: true`; all zeros when no value fell in range. */
  density: number[] | null;
  inRange: number;
  underflow: number;
  overflow: number;
  /** NaN values, which belong to no bin. */
  nan: number;
}

/**
 * Bins are half-open [edges[i], edges[i+1]) except the last, which also holds `max`. A value's
 * bin is checked against the stored edges (as numpy does), so a value just below an edge never
 * lands past it through rounding in the index arithmetic.
 */
export function histogram(values: ArrayLike<number>, options: HistogramOptions): Histogram {
  const { min, max, bins } = options;
  if (!Number.isInteger(bins) || bins <= 0) throw new RangeError(`bins must be a positive integer`);
  if (!Number.isFinite(min) || !Number.isFinite(max) || !(min < max)) {
    throw new RangeError(`need finite min < max, got [${min}, ${max}]`);
  }
  const step = (max - min) / bins;
  const edges = Array.from({ length: bins + 1 }, (_, i) => min + i * step);
  edges[bins] = max;

  const counts = new Array<number>(bins).fill(0);
  let underflow = 0;
  let overflow = 0;
  let nan = 0;
  const scale = bins / (max - min);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) nan++;
    else if (v < min) underflow++;
    else if (v > max) overflow++;
    else {
      let bin = Math.min(Math.floor((v - min) * scale), bins - 1);
      if (v < edges[bin]) bin--;
      else if (bin < bins - 1 && v >= edges[bin + 1]) bin++;
      counts[bin]++;
    }
  }

  const inRange = values.length - underflow - overflow - nan;
  const density = options.density
    ? counts.map((c, i) => (inRange === 0 ? 0 : c / (inRange * (edges[i + 1] - edges[i]))))
    : null;
  return { edges, counts, density, inRange, underflow, overflow, nan };
}

/**
 * Silverman's rule of thumb, 0.9 * min(sd, IQR / 1.34) * n^(-1/5) (Silverman 1986, eq. 3.31).
 * Falls back to sd when the IQR is 0, and to a narrow width around the value when every value
 * is equal, so a plot shows a spike rather than nothing.
 */
export function silvermanBandwidth(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) throw new RangeError('bandwidth of an empty sample');
  const sorted = sortedAscending(values);
  const sd = sampleStd(sorted) ?? 0;
  const iqr = (quantileSorted(sorted, 0.75) ?? 0) - (quantileSorted(sorted, 0.25) ?? 0);
  let spread = Math.min(sd, iqr / 1.34);
  if (spread === 0) spread = sd;
  if (spread === 0) return 1e-3 * Math.max(1, Math.abs(sorted[0]));
  return 0.9 * spread * n ** -0.2;
}

const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);

/** Gaussian KDE evaluated at each grid point; integrates to 1 over the real line. */
export function kdeDensity(
  values: ArrayLike<number>,
  grid: ArrayLike<number>,
  bandwidth?: number,
): Float64Array {
  const out = new Float64Array(grid.length);
  const n = values.length;
  if (n === 0) return out;
  const h = bandwidth ?? silvermanBandwidth(values);
  if (!(h > 0) || !Number.isFinite(h)) throw new RangeError(`bandwidth must be > 0, got ${h}`);
  const norm = INV_SQRT_2PI / (n * h);
  for (let g = 0; g < grid.length; g++) {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const z = (grid[g] - values[i]) / h;
      sum += Math.exp(-0.5 * z * z);
    }
    out[g] = sum * norm;
  }
  return out;
}
