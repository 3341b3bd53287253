// A WebAssembly SIMD kernel for the dense path's one hot loop: the dot products of one query with a
// block of rows, 8 floats per step in two f32x4 accumulators. Assembled here from its few bytes (no
// toolchain, no file to fetch); about 4× the scalar JavaScript loop in V8. Scores accumulate in
// float32, so they differ from the JavaScript kernel's float64 sums by ~1e-7.

import {
  BLOCK,
  BR,
  BR_IF,
  compileOrNull,
  END,
  assembleKernel,
  get,
  I32,
  I32_ADD,
  I32_CONST,
  I32_GE_U,
  I32_SHL,
  instantiateKernel,
  LOOP,
  set,
  simd,
  V128,
  V128_LOAD,
  ZERO,
  type KernelFn,
} from './wasm-assembler.ts';

const F32X4_ADD = simd(0xe4);
const F32X4_MUL = simd(0xe6);
const LANE = (l: number) => simd(0x1f, l);

const F32_ADD = 0x92;
const F32_STORE = [0x38, 2, 0];

// dots(q, rows, n, dimBytes, out): out[r] = q · rows[r] for r < n; dimBytes a multiple of 32.
const [Q, ROWS, N, DIMB, OUT, R, I, RP, A0, A1] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
// acc += load(q + i + offset) * load(rp + i + offset)
// prettier-ignore
const madd = (acc: number, offset: number) => [
  ...get(acc),
  ...get(Q), ...get(I), I32_ADD, ...V128_LOAD(offset),
  ...get(RP), ...get(I), I32_ADD, ...V128_LOAD(offset),
  ...F32X4_MUL, ...F32X4_ADD, ...set(acc),
];
// prettier-ignore
const body = [
  ...get(ROWS), ...set(RP),
  ...I32_CONST(0), ...set(R),
  ...BLOCK, ...LOOP, // for each row
  ...get(R), ...get(N), I32_GE_U, ...BR_IF(1),
  ...ZERO, ...set(A0), ...ZERO, ...set(A1),
  ...I32_CONST(0), ...set(I),
  ...BLOCK, ...LOOP, // for each 8 floats
  ...get(I), ...get(DIMB), I32_GE_U, ...BR_IF(1),
  ...madd(A0, 0), ...madd(A1, 16),
  ...get(I), ...I32_CONST(32), I32_ADD, ...set(I),
  ...BR(0), END, END,
  ...get(OUT), ...get(R), ...I32_CONST(2), I32_SHL, I32_ADD, // &out[r]
  ...get(A0), ...get(A1), ...F32X4_ADD, ...set(A0),
  ...get(A0), ...LANE(0), ...get(A0), ...LANE(1), F32_ADD,
  ...get(A0), ...LANE(2), ...get(A0), ...LANE(3), F32_ADD, F32_ADD,
  ...F32_STORE,
  ...get(RP), ...get(DIMB), I32_ADD, ...set(RP),
  ...get(R), ...I32_CONST(1), I32_ADD, ...set(R),
  ...BR(0), END, END,
];

// locals: r, i, rp (i32); a0, a1 (v128)
const MODULE = assembleKernel(
  'dots',
  5,
  [
    [3, I32],
    [2, V128],
  ],
  body,
);

let compiled: WebAssembly.Module | null | undefined;

/** The compiled kernel, or null where this engine has no WebAssembly SIMD. */
function kernelModule(): WebAssembly.Module | null {
  if (compiled !== undefined) return compiled;
  compiled = compileOrNull(MODULE);
  return compiled;
}

export function simdAvailable(): boolean {
  return kernelModule() !== null;
}

/** The kernel's dim rule: whole 8-float steps. */
export function simdFits(dim: number): boolean {
  return dim % 8 === 0 && simdAvailable();
}

/**
 * Scratch memory holding the queries once and one block of rows at a time; `score` fills `out`
 * with one query's dot products against the block's first `n` rows.
 */
export class SimdScorer {
  private readonly dots: KernelFn;
  private readonly memory: WebAssembly.Memory;
  private readonly queryBase = 0;
  private readonly rowBase: number;
  private readonly outBase: number;
  readonly rows: Float32Array;
  readonly out: Float32Array;

  constructor(
    queries: Float32Array,
    private readonly dim: number,
    blockRows: number,
  ) {
    const module = kernelModule();
    if (!module || dim % 8 !== 0) throw new Error('WebAssembly SIMD kernel unavailable');
    const queryBytes = queries.length * 4;
    this.rowBase = queryBytes;
    this.outBase = this.rowBase + blockRows * dim * 4;
    const bytes = this.outBase + blockRows * 4;
    this.memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / 65536) + 1 });
    this.dots = instantiateKernel(module, this.memory, 'dots');
    new Float32Array(this.memory.buffer, this.queryBase, queries.length).set(queries);
    this.rows = new Float32Array(this.memory.buffer, this.rowBase, blockRows * dim);
    this.out = new Float32Array(this.memory.buffer, this.outBase, blockRows);
  }

  /** Copies a decoded block of rows into the kernel's memory. */
  load(block: Float32Array): void {
    this.rows.set(block);
  }

  score(query: number, n: number): void {
    const dimBytes = this.dim * 4;
    this.dots(this.queryBase + query * dimBytes, this.rowBase, n, dimBytes, this.outBase);
  }
}
