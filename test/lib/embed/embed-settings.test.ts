import { describe, expect, it } from 'vitest';
import { listModelSpecs } from '../../../src/lib/embed/model-registry.ts';
import {
  asksPerturbation,
  asksProbeFailure,
  readEmbedSettings,
  settingsParams,
} from '../../../src/lib/embed/embed-settings.ts';

const specs = listModelSpecs();

describe('Embeddings page settings in the URL', () => {
  it('reads model, device and dtype, defaulting what is absent or unknown', () => {
    const s = readEmbedSettings({ model: 'bge-small', device: 'wasm', dtype: 'q8' }, specs);
    expect([s.spec.id, s.device, s.dtype, s.failWebgpuProbe]).toEqual([
      'bge-small',
      'wasm',
      'q8',
      false,
    ]);
    const d = readEmbedSettings({ model: 'nope', device: 'tpu', dtype: 'q4' }, specs);
    expect([d.spec.id, d.device, d.dtype]).toEqual([specs[0].id, 'auto', specs[0].dtypes[0]]);
  });

  it('never picks a dtype the model lacks', () => {
    expect(readEmbedSettings({ model: 'tiny-bert', dtype: 'q8' }, specs).dtype).toBe('fp32');
  });

  it('knows the probe-failure test aid, and ignores it outside test builds', () => {
    expect(asksProbeFailure({ webgpuProbe: 'fail' })).toBe(true);
    expect(asksProbeFailure({ webgpuProbe: 'pass' })).toBe(false);
    expect(readEmbedSettings({ webgpuProbe: 'fail' }, specs).failWebgpuProbe).toBe(false);
  });

  it('knows the perturbation test aid, and ignores it outside test builds', () => {
    expect(asksPerturbation({ probePerturb: 'webgpu' })).toBe('webgpu');
    expect(asksPerturbation({ probePerturb: 'wasm' })).toBe('wasm');
    expect(asksPerturbation({ probePerturb: 'gpu' })).toBeNull();
    expect(readEmbedSettings({ probePerturb: 'webgpu' }, specs).perturbProbe).toBeNull();
  });

  it('writes non-defaults only, and round-trips', () => {
    const tiny = specs.find((s) => s.id === 'tiny-bert');
    if (!tiny) throw new Error('no tiny-bert');
    const params = settingsParams({ spec: tiny, device: 'webgpu', dtype: 'fp32' }, specs);
    expect(params).toEqual({ model: 'tiny-bert', device: 'webgpu', dtype: null });
    expect(
      settingsParams({ spec: specs[0], device: 'auto', dtype: specs[0].dtypes[0] }, specs),
    ).toEqual({ model: null, device: null, dtype: null });
    const clean = Object.fromEntries(
      Object.entries(params).filter((e): e is [string, string] => e[1] !== null),
    );
    const back = readEmbedSettings(clean, specs);
    expect([back.spec.id, back.device, back.dtype]).toEqual(['tiny-bert', 'webgpu', 'fp32']);
  });
});
