// What a vector must be before a page or the CLI trusts it, whatever its source (a site pack, an
// imported or picked pack, a brought model's output, the stored vector cache): finite, of the
// model's dimension, of unit length where the model normalises, and not constant (all zero, or
// every row the same). One pass over each row and no allocation per row: it runs on thousands of
// 384-number rows. A row that passes allocates nothing; only faults are objects.

export type VectorCheck = 'dimension' | 'finite' | 'not constant' | 'unit norm';

export interface VectorShape {
  dim: number;
  /** The model L2-normalises its output, so every row has norm 1 within UNIT_NORM_TOLERANCE. */
  normalize: boolean;
}

/**
 * Pooled rows are normalised in float32 (pooling.ts) whatever the weights' dtype: a 384-number
 * row's norm is then 1 to about 1e-7, so 1e-3 refuses only rows that were never normalised.
 */
export const UNIT_NORM_TOLERANCE = 1e-3;

export interface VectorFault {
  /** The row's index among the rows checked (0-based, as pack messages count rows). */
  row: number;
  check: VectorCheck;
  detail: string;
}

type RowFault = Omit<VectorFault, 'row'>;

function nonFinite(values: ArrayLike<number>, start: number, length: number): RowFault {
  for (let i = 0; i < length; i++) {
    const v = values[start + i];
    if (!Number.isFinite(v)) return { check: 'finite', detail: `number ${i} is ${v}` };
  }
  return { check: 'unit norm', detail: 'its length overflows' };
}

/** The first fault of the row `values[start, start + length)`, or null. */
export function rowFault(
  values: ArrayLike<number>,
  start: number,
  length: number,
  shape: VectorShape,
): RowFault | null {
  if (length !== shape.dim) {
    return { check: 'dimension', detail: `${length} numbers, not the model's ${shape.dim}` };
  }
  let sum = 0;
  for (let i = start; i < start + length; i++) sum += values[i] * values[i];
  if (!Number.isFinite(sum)) return nonFinite(values, start, length);
  if (sum === 0) return { check: 'not constant', detail: 'every number is 0' };
  const norm = Math.sqrt(sum);
  if (shape.normalize && Math.abs(norm - 1) > UNIT_NORM_TOLERANCE) {
    return {
      check: 'unit norm',
      detail: `length ${norm.toPrecision(4)}, not 1 (the model normalises)`,
    };
  }
  return null;
}

function sameRow(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The faults of `rows` (undefined ones skipped: a cache miss), at most `max`: each row's own, or,
 * where two or more rows pass and all are the same numbers, every row as "not constant".
 * `shape` may differ by row (a pack may hold several models).
 */
export function rowsFaults(
  rows: readonly (ArrayLike<number> | undefined)[],
  shape: VectorShape | ((row: number) => VectorShape),
  max = Number.POSITIVE_INFINITY,
): VectorFault[] {
  const faults: VectorFault[] = [];
  let first = -1;
  let same = 0;
  let passed = 0;
  for (let r = 0; r < rows.length && faults.length < max; r++) {
    const row = rows[r];
    if (!row) continue;
    const fault = rowFault(row, 0, row.length, typeof shape === 'function' ? shape(r) : shape);
    if (fault) {
      faults.push({ row: r, ...fault });
      continue;
    }
    passed++;
    if (first < 0) first = r;
    if (sameRow(rows[first] ?? [], row)) same++;
  }
  if (faults.length > 0 || passed < 2 || same < passed) return faults;
  const detail = `the same numbers as row ${first}, as every one of the ${passed} rows is`;
  for (let r = first + 1; r < rows.length && faults.length < max; r++) {
    if (rows[r]) faults.push({ row: r, check: 'not constant', detail });
  }
  return faults;
}

/** `WHERE row R fails the CHECK check (DETAIL)`: what every refusal of a vector says. */
export function describeFault(where: string, fault: VectorFault): string {
  return `${where}row ${fault.row} fails the ${fault.check} check (${fault.detail})`;
}

/** What each check's failure usually means, for the fix a message names. */
export const FAULT_CAUSE: Record<VectorCheck, string> = {
  dimension: 'the vectors were made by another model than the one named',
  finite: 'the model that made them failed (NaN or infinite numbers)',
  'not constant': "these are placeholder numbers, not a model's vectors",
  'unit norm': 'the vectors were not normalised as the model normalises them, or were edited',
};

/** The note a page shows when stored vectors fail their check and are computed again. */
export function describeDropped(faults: readonly VectorFault[], model: string): string {
  const n = faults.length;
  const first = describeFault('', faults[0]);
  return `${n} stored ${model} vector${n === 1 ? '' : 's'} failed ${n === 1 ? 'its' : 'their'} check and ${n === 1 ? 'was' : 'were'} dropped from this browser's vector cache and computed again (the first: ${first}).`;
}

/**
 * The rows of stored vectors (`hits`, undefined for a miss) that fail their check, told to
 * `onDropped` once; null when all pass. The embedder computes those rows again.
 */
export function droppedRows(
  hits: readonly (Float32Array | undefined)[],
  shape: VectorShape,
  model: string,
  onDropped?: (message: string) => void,
): Set<number> | null {
  const faults = rowsFaults(hits, shape);
  if (faults.length === 0) return null;
  onDropped?.(describeDropped(faults, model));
  return new Set(faults.map((f) => f.row));
}

/**
 * The error for the first row of a computed batch (rows for `indices` of `run.texts`) that fails
 * its check, naming the model and the text; null when every row passes.
 */
export function batchError(
  batch: Float32Array,
  indices: readonly number[],
  shape: VectorShape,
  run: { model: string; texts: readonly string[]; rows: readonly (readonly number[])[] },
): Error | null {
  for (let r = 0; r < indices.length; r++) {
    const fault = rowFault(batch, r * shape.dim, shape.dim, shape);
    if (!fault) continue;
    const index = indices[r];
    const text = JSON.stringify(run.texts[index].slice(0, 60));
    return new Error(
      `${run.model}: the vector computed for ${text} (text ${run.rows[index][0]} of the run) fails the ${fault.check} check (${fault.detail}); nothing of this batch was stored`,
    );
  }
  return null;
}
