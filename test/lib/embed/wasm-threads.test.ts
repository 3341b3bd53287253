import { afterEach, describe, expect, it, vi } from 'vitest';
import { wasmThreadCount } from '../../../src/lib/embed/wasm-threads.ts';

describe('wasmThreadCount', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is 1 on a page that is not cross-origin isolated', () => {
    vi.stubGlobal('crossOriginIsolated', false);
    expect(wasmThreadCount()).toBe(1);
  });

  it('uses the cores, at most 4, on an isolated page', () => {
    vi.stubGlobal('crossOriginIsolated', true);
    vi.stubGlobal('navigator', { hardwareConcurrency: 2 });
    expect(wasmThreadCount()).toBe(2);
    vi.stubGlobal('navigator', { hardwareConcurrency: 16 });
    expect(wasmThreadCount()).toBe(4);
  });
});
