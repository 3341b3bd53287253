// The few WebAssembly encodings the hand-assembled SIMD kernels use (simd-dot, int16-dot): no
// toolchain and no file to fetch, a module is a few hundred bytes built in code.

export const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
};

export const section = (id: number, body: number[]): number[] => [id, ...leb(body.length), ...body];
const name = (s: string): number[] => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];

export const I32 = 0x7f;
export const V128 = 0x7b;
export const get = (i: number) => [0x20, i];
export const set = (i: number) => [0x21, i];
export const simd = (op: number, ...imm: number[]) => [0xfd, ...leb(op), ...imm];
/** v128.load with 16-byte alignment hint and a constant byte offset. */
export const V128_LOAD = (offset: number) => simd(0x00, 4, ...leb(offset));
export const V128_STORE = (offset: number) => simd(0x0b, 4, ...leb(offset));
export const I32_STORE = (offset: number) => [0x36, 2, ...leb(offset)];
export const ZERO = simd(0x0c, ...new Array<number>(16).fill(0));

export const BLOCK = [0x02, 0x40];
export const LOOP = [0x03, 0x40];
export const END = 0x0b;
export const BR = (depth: number) => [0x0c, depth];
export const BR_IF = (depth: number) => [0x0d, depth];
/** i32.const for a non-negative n (signed LEB128: the last byte's bit 6 must stay clear). */
export const I32_CONST = (n: number) => {
  const out: number[] = [];
  while (n >= 64) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  return [0x41, ...out, n];
};
export const I32_ADD = 0x6a;
export const I32_LT_U = 0x49;
export const I32_GE_U = 0x4f;
export const I32_SHL = 0x74;

/**
 * A module importing memory `m.mem` and exporting one function `fn` of `params` i32 parameters and
 * no result; `locals` are (count, type) runs, `code` its body without the final `end`.
 */
export function assembleKernel(
  fn: string,
  params: number,
  locals: readonly (readonly [number, number])[],
  code: number[],
): Uint8Array<ArrayBuffer> {
  const body = [locals.length, ...locals.flatMap(([n, t]) => [...leb(n), t]), ...code, END];
  // prettier-ignore
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // \0asm, version 1
    ...section(1, [1, 0x60, params, ...new Array<number>(params).fill(I32), 0]), // (i32 …) → ()
    ...section(2, [1, ...name('m'), ...name('mem'), 0x02, 0x00, 1]), // import memory m.mem
    ...section(3, [1, 0]), // one function of type 0
    ...section(7, [1, ...name(fn), 0x00, 0]), // export it
    ...section(10, [1, ...leb(body.length), ...body]),
  ]);
}

/** Compiles `bytes`, or null where this engine lacks what they use (e.g. WebAssembly SIMD). */
export function compileOrNull(bytes: Uint8Array<ArrayBuffer>): WebAssembly.Module | null {
  try {
    return WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  } catch {
    return null;
  }
}

export type KernelFn = (...args: number[]) => void;

/** Instantiates a kernel module over `memory` and returns its export `fn`. */
export function instantiateKernel(
  module: WebAssembly.Module,
  memory: WebAssembly.Memory,
  fn: string,
): KernelFn {
  const instance = new WebAssembly.Instance(module, { m: { mem: memory } });
  const f = instance.exports[fn];
  if (typeof f !== 'function') throw new Error(`kernel has no ${fn} export`);
  return (...args) => f(...args);
}
