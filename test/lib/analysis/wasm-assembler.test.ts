import { describe, expect, it } from 'vitest';
import {
  assembleKernel,
  compileOrNull,
  get,
  I32,
  I32_CONST,
  I32_STORE,
  instantiateKernel,
  leb,
} from '../../../src/lib/analysis/wasm-assembler.ts';

describe('WebAssembly assembler helpers', () => {
  it('encodes unsigned and signed LEB128', () => {
    expect(leb(0)).toEqual([0]);
    expect(leb(127)).toEqual([0x7f]);
    expect(leb(128)).toEqual([0x80, 0x01]);
    expect(I32_CONST(63)).toEqual([0x41, 63]);
    expect(I32_CONST(64)).toEqual([0x41, 0xc0, 0x00]);
    expect(I32_CONST(1000)).toEqual([0x41, 0xe8, 0x07]);
  });

  it('assembles a module that runs: store(a, b + 1000)', () => {
    const code = [...get(0), ...get(1), ...I32_CONST(1000), 0x6a, ...I32_STORE(0)];
    const module = compileOrNull(assembleKernel('f', 2, [[1, I32]], code));
    if (!module) throw new Error('did not compile');
    const memory = new WebAssembly.Memory({ initial: 1 });
    instantiateKernel(module, memory, 'f')(8, 5);
    expect(new Int32Array(memory.buffer)[2]).toBe(1005);
    expect(compileOrNull(new Uint8Array([0, 1, 2]))).toBeNull();
  });
});
