import { describe, expect, it } from 'vitest';
import { chooseBackend } from '../../../src/lib/embed/backend-choice.ts';
import type { AdapterReport } from '../../../src/lib/embed/webgpu.ts';

const adapter: AdapterReport = {
  available: true,
  vendor: 'google',
  architecture: 'swiftshader',
  device: '',
  description: '',
};
const none: AdapterReport = { available: false, reason: 'requestAdapter() returned no adapter' };

function loaders(webgpu: () => Promise<string>) {
  const calls: string[] = [];
  return {
    calls,
    webgpu: () => (calls.push('webgpu'), webgpu()),
    wasm: () => (calls.push('wasm'), Promise.resolve('wasm-model')),
  };
}

describe('chooseBackend', () => {
  it('uses WebGPU when the adapter exists and the probe passes', async () => {
    const l = loaders(() => Promise.resolve('gpu-model'));
    const choice = await chooseBackend('auto', async () => adapter, l.webgpu, l.wasm);
    expect(choice).toEqual({ value: 'gpu-model', backend: 'webgpu', fallbackReason: null });
    expect(l.calls).toEqual(['webgpu']);
  });

  it('falls back to WASM with the reason when there is no adapter', async () => {
    const l = loaders(() => Promise.resolve('gpu-model'));
    const choice = await chooseBackend('webgpu', async () => none, l.webgpu, l.wasm);
    expect(choice.backend).toBe('wasm');
    expect(choice.fallbackReason).toBe('no WebGPU: requestAdapter() returned no adapter');
    expect(l.calls).toEqual(['wasm']);
  });

  it('falls back to WASM with the error when the probe fails', async () => {
    const l = loaders(() => Promise.reject(new Error('shader compile failed')));
    const choice = await chooseBackend('auto', async () => adapter, l.webgpu, l.wasm);
    expect(choice).toEqual({
      value: 'wasm-model',
      backend: 'wasm',
      fallbackReason: 'WebGPU probe failed: shader compile failed',
    });
  });

  it('skips the adapter entirely when WASM is chosen', async () => {
    const l = loaders(() => Promise.resolve('gpu-model'));
    let asked = false;
    const choice = await chooseBackend(
      'wasm',
      async () => ((asked = true), adapter),
      l.webgpu,
      l.wasm,
    );
    expect(choice.backend).toBe('wasm');
    expect(asked).toBe(false);
  });
});
