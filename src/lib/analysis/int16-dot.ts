// The integer screen's kernel: 8 queries at once against a block of rows, all as int16, with
// i32x4.dot_i16x8_s (8 multiply-adds per instruction, exact integer sums). Each row is loaded once
// for the whole group, and per row the kernel also flags whether any of the 8 sums reaches its
// query's threshold, so JavaScript only looks at the few rows that might matter.
import {
  assembleKernel,
  BLOCK,
  BR,
  BR_IF,
  compileOrNull,
  get,
  I32,
  I32_ADD,
  I32_CONST,
  I32_GE_U,
  I32_LT_U,
  I32_STORE,
  instantiateKernel,
  LOOP,
  set,
  simd,
  V128,
  V128_LOAD,
  V128_STORE,
  ZERO,
  END,
  type KernelFn,
} from './wasm-assembler.ts';

/** Queries scored per pass over a block: 8 accumulators + 1 row vector fit x64's 16 registers. */
export const GROUP = 8;

const I32X4_DOT_I16X8_S = simd(0xba);
const I32X4_ADD = simd(0xae);
const I32X4_GE_S = simd(0x3f);
const V128_OR = simd(0x50);
const V128_ANY_TRUE = simd(0x53);
/** i8x16.shuffle picking four i32 lanes (0–3 from the first operand, 4–7 from the second). */
const SHUFFLE = (...lanes: number[]) =>
  simd(0x0d, ...lanes.flatMap((l) => [4 * l, 4 * l + 1, 4 * l + 2, 4 * l + 3]));

// dots(group, rows, n, dimBytes, out, thresholds, flags): for each row r < n,
// out[r × 8 + j] = Σ group_j[i] × rows[r][i] and flags[r] = 1 if some out[r × 8 + j] ≥
// thresholds[j], else 0. `group` holds 8 queries interleaved in 16-byte chunks (chunk c of query
// j at (c × 8 + j) × 16), so the query pointer advances 128 bytes per 8 values.
const [G, ROWS, N, DIMB, OUT, THR, FLAGS, R, X, END_X, P, V] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
];
const ACC = (j: number) => 12 + j;
const range = Array.from({ length: GROUP }, (_, j) => j);
// prettier-ignore
const step = [
  ...get(X), ...V128_LOAD(0), ...set(V),
  ...range.flatMap((j) => [
    ...get(ACC(j)),
    ...get(P), ...V128_LOAD(16 * j), ...get(V), ...I32X4_DOT_I16X8_S,
    ...I32X4_ADD, ...set(ACC(j)),
  ]),
  ...get(X), ...I32_CONST(16), I32_ADD, ...set(X),
  ...get(P), ...I32_CONST(GROUP * 16), I32_ADD, ...set(P),
];
// a ← a + b lane-pairwise folded: [a0+a2, a1+a3, b0+b2, b1+b3]
// prettier-ignore
const pairSum = (a: number, b: number) => [
  ...get(a), ...get(b), ...SHUFFLE(0, 1, 4, 5),
  ...get(a), ...get(b), ...SHUFFLE(2, 3, 6, 7),
  ...I32X4_ADD, ...set(a),
];
// a ← [Σa, Σb, Σc, Σd] from a = pairSum(a, b) and c = pairSum(c, d)
// prettier-ignore
const quadSum = (a: number, c: number) => [
  ...get(a), ...get(c), ...SHUFFLE(0, 2, 4, 6),
  ...get(a), ...get(c), ...SHUFFLE(1, 3, 5, 7),
  ...I32X4_ADD, ...set(a),
];
// prettier-ignore
const reduceAndFlag = [
  ...pairSum(ACC(0), ACC(1)), ...pairSum(ACC(2), ACC(3)),
  ...pairSum(ACC(4), ACC(5)), ...pairSum(ACC(6), ACC(7)),
  ...quadSum(ACC(0), ACC(2)), ...quadSum(ACC(4), ACC(6)),
  ...get(OUT), ...get(ACC(0)), ...V128_STORE(0),
  ...get(OUT), ...get(ACC(4)), ...V128_STORE(16),
  ...get(FLAGS),
  ...get(ACC(0)), ...get(THR), ...V128_LOAD(0), ...I32X4_GE_S,
  ...get(ACC(4)), ...get(THR), ...V128_LOAD(16), ...I32X4_GE_S,
  ...V128_OR, ...V128_ANY_TRUE,
  ...I32_STORE(0),
];
// prettier-ignore
const body = [
  ...get(ROWS), ...set(X),
  ...I32_CONST(0), ...set(R),
  ...BLOCK, ...LOOP, // for each row
  ...get(R), ...get(N), I32_GE_U, ...BR_IF(1),
  ...range.flatMap((j) => [...ZERO, ...set(ACC(j))]),
  ...get(G), ...set(P),
  ...get(X), ...get(DIMB), I32_ADD, ...set(END_X),
  ...LOOP, // for each 8 values
  ...step,
  ...get(X), ...get(END_X), I32_LT_U, ...BR_IF(0),
  END,
  ...reduceAndFlag,
  ...get(OUT), ...I32_CONST(GROUP * 4), I32_ADD, ...set(OUT),
  ...get(FLAGS), ...I32_CONST(4), I32_ADD, ...set(FLAGS),
  ...get(R), ...I32_CONST(1), I32_ADD, ...set(R),
  ...BR(0), END, END,
];

// locals: r, x, endX, p (i32); v, acc0..acc7 (v128)
const MODULE = assembleKernel(
  'dots',
  7,
  [
    [4, I32],
    [1 + GROUP, V128],
  ],
  body,
);

let compiled: WebAssembly.Module | null | undefined;

function kernelModule(): WebAssembly.Module | null {
  if (compiled === undefined) compiled = compileOrNull(MODULE);
  return compiled;
}

/** The kernel's dim rule: whole 8-value steps, and WebAssembly SIMD in this engine. */
export function int16Fits(dim: number): boolean {
  return dim % 8 === 0 && kernelModule() !== null;
}

/**
 * Kernel memory holding every query once (int16, interleaved by groups of GROUP) and one block of
 * int16 rows at a time. `score(g, n)` fills `out` with the block's first `n` rows × group g's
 * GROUP integer dot products (row-major), and `flags[r]` with whether row r reaches any of
 * `thresholds`. Queries past the last (padding) score 0.
 */
export class Int16GroupScorer {
  private readonly dots: KernelFn;
  private readonly rowBase: number;
  private readonly outBase: number;
  private readonly thresholdBase: number;
  private readonly flagBase: number;
  readonly groups: number;
  readonly rows: Int16Array;
  readonly out: Int32Array;
  /** Per query of the group, the smallest sum that flags a row. */
  readonly thresholds: Int32Array;
  readonly flags: Int32Array;

  /** `queries`: `count` int16 queries of `dim` values, row-major. */
  constructor(
    queries: Int16Array,
    count: number,
    private readonly dim: number,
    blockRows: number,
  ) {
    const module = kernelModule();
    if (!module || dim % 8 !== 0) throw new Error('WebAssembly SIMD int16 kernel unavailable');
    if (queries.length !== count * dim) throw new RangeError(`queries are not ${count} × ${dim}`);
    this.groups = Math.ceil(count / GROUP);
    this.rowBase = this.groups * GROUP * dim * 2;
    this.outBase = this.rowBase + blockRows * dim * 2;
    this.thresholdBase = this.outBase + blockRows * GROUP * 4;
    this.flagBase = this.thresholdBase + GROUP * 4;
    const bytes = this.flagBase + blockRows * 4;
    const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / 65536) + 1 });
    this.dots = instantiateKernel(module, memory, 'dots');
    const interleaved = new Int16Array(memory.buffer, 0, this.groups * GROUP * dim);
    for (let q = 0; q < count; q++) {
      const g = Math.floor(q / GROUP);
      const j = q % GROUP;
      for (let i = 0; i < dim; i++) {
        interleaved[g * GROUP * dim + ((i >> 3) * GROUP + j) * 8 + (i & 7)] = queries[q * dim + i];
      }
    }
    this.rows = new Int16Array(memory.buffer, this.rowBase, blockRows * dim);
    this.out = new Int32Array(memory.buffer, this.outBase, blockRows * GROUP);
    this.thresholds = new Int32Array(memory.buffer, this.thresholdBase, GROUP);
    this.flags = new Int32Array(memory.buffer, this.flagBase, blockRows);
  }

  score(group: number, n: number): void {
    const dimBytes = this.dim * 2;
    this.dots(
      group * GROUP * dimBytes,
      this.rowBase,
      n,
      dimBytes,
      this.outBase,
      this.thresholdBase,
      this.flagBase,
    );
  }
}
