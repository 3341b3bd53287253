import { describe, expect, it } from 'vitest';
import { backendLabel, chooseBackend } from '../../../src/lib/embed/backend-choice.ts';
import { softwareAdapterReason, type AdapterReport } from '../../../src/lib/embed/webgpu.ts';

const adapter: AdapterReport = {
  available: true,
  vendor: 'nvidia',
  architecture: 'ada',
  device: '',
  description: '',
  software: null,
};
const swiftshader: AdapterReport = {
  ...adapter,
  vendor: 'google',
  architecture: 'swiftshader',
  software: 'a software adapter (swiftshader)',
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
    expect(choice).toEqual({
      value: 'gpu-model',
      backend: 'webgpu',
      fallbackReason: null,
      emulated: null,
    });
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
      emulated: null,
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

  it('never picks a software adapter on auto: WASM, saying why', async () => {
    const l = loaders(() => Promise.resolve('gpu-model'));
    const choice = await chooseBackend('auto', async () => swiftshader, l.webgpu, l.wasm);
    expect(choice).toEqual({
      value: 'wasm-model',
      backend: 'wasm',
      fallbackReason: "no hardware GPU: WebGPU's adapter is a software adapter (swiftshader)",
      emulated: null,
    });
    expect(l.calls).toEqual(['wasm']);
  });

  it('runs a forced WebGPU on a software adapter, marked as emulated', async () => {
    const l = loaders(() => Promise.resolve('gpu-model'));
    const choice = await chooseBackend('webgpu', async () => swiftshader, l.webgpu, l.wasm);
    expect(choice.backend).toBe('webgpu');
    expect(choice.emulated).toBe('a software adapter (swiftshader)');
    expect(backendLabel(choice)).toBe(
      'WebGPU (emulated on the CPU: a software adapter (swiftshader))',
    );
    expect(backendLabel({ backend: 'wasm' })).toBe('WASM');
    const probe = { texts: 24, worstCosine: 1, threshold: 0.9999, reference: 'ST' };
    expect(backendLabel({ backend: 'wasm', probe })).toBe(
      'WASM · probe: 24 texts, worst cosine 1 ≥ 0.9999 vs ST',
    );
  });
});

describe('softwareAdapterReason', () => {
  it('counts fallback adapters and CPU renderers as no GPU', () => {
    expect(softwareAdapterReason({ isFallbackAdapter: true })).toBe(
      'a fallback adapter (isFallbackAdapter)',
    );
    const info = { vendor: 'google', architecture: 'swiftshader', isFallbackAdapter: true };
    expect(softwareAdapterReason({ info })).toBe('a fallback adapter (google swiftshader)');
    expect(softwareAdapterReason({ info: { vendor: 'google', architecture: 'swiftshader' } })).toBe(
      'a software adapter (swiftshader)',
    );
    expect(
      softwareAdapterReason({ info: { vendor: 'mesa', description: 'llvmpipe (LLVM 15)' } }),
    ).toBe('a software adapter (llvmpipe)');
    expect(
      softwareAdapterReason({ info: { vendor: 'google', device: 'Subzero CPU device' } }),
    ).toBe('a software adapter (CPU)');
  });

  it('keeps hardware adapters', () => {
    expect(
      softwareAdapterReason({ info: { vendor: 'nvidia', architecture: 'ada-lovelace' } }),
    ).toBe(null);
    expect(softwareAdapterReason({ info: { vendor: 'apple', architecture: 'metal-3' } })).toBe(
      null,
    );
    expect(softwareAdapterReason({})).toBe(null);
  });
});
