import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../scripts/lib/site-build.ts';
import { sha256Hex } from '../../../src/lib/common/sha256.ts';
import { listModelSpecs, weightsFile } from '../../../src/lib/embed/model-registry.ts';
import {
  parseProbeRegistry,
  PROBES,
  probeRows,
  probeSetFor,
  probeVectors,
  selectRows,
} from '../../../src/lib/embed/probe-registry.ts';

const set = {
  model: 'minilm',
  dtype: 'fp32',
  file: 'probes/minilm-fp32.f32',
  sha256: 'a'.repeat(64),
  weights: 'b'.repeat(64),
  reference: 'sentence-transformers 6.2.0',
  threshold: 0.9999,
};
const registry = (sets: unknown[], webgpu: unknown = [1]) => ({
  format: 'memlens-probes',
  texts: ['a', 'b'],
  webgpu,
  sets,
});

describe('data/probes.json', () => {
  it('pins every committed reference file by its sha256, for weights the registry pins', async () => {
    expect(PROBES.sets.length).toBeGreaterThanOrEqual(3);
    for (const s of PROBES.sets) {
      const bytes = await readFile(path.join(repoRoot, 'public', s.file));
      expect(await sha256Hex(bytes), s.file).toBe(s.sha256);
      const spec = listModelSpecs().find((m) => m.id === s.model);
      expect(spec, s.model).toBeDefined();
      if (spec) expect(weightsFile(spec, s.dtype).sha256).toBe(s.weights);
      expect(probeVectors(bytes, PROBES.texts.length, spec?.dims ?? 0, s.file).length).toBe(
        PROBES.texts.length * (spec?.dims ?? 0),
      );
    }
  });

  it('judges only the weights its reference was made from', () => {
    const parsed = parseProbeRegistry(registry([set]));
    expect(probeSetFor('minilm', 'fp32', 'b'.repeat(64), parsed)?.file).toBe(set.file);
    expect(probeSetFor('minilm', 'fp32', 'c'.repeat(64), parsed)).toBeNull();
    expect(probeSetFor('minilm', 'q8', 'b'.repeat(64), parsed)).toBeNull();
  });

  it('names the field that is wrong', () => {
    expect(() => parseProbeRegistry({ format: 'x' })).toThrow(/"format" is not "memlens-probes"/);
    expect(() => parseProbeRegistry(registry([{ ...set, threshold: 2 }]))).toThrow(
      /sets\[0\]: "threshold"/,
    );
    expect(() => parseProbeRegistry(registry([{ ...set, sha256: 'x' }]))).toThrow(/"sha256"/);
    expect(() => parseProbeRegistry(registry([{ ...set, dtype: 'q2' }]))).toThrow(/"dtype"/);
  });

  it('probes every text on WASM and the listed rows on WebGPU, with their reference rows', () => {
    const parsed = parseProbeRegistry(registry([set]));
    expect(probeRows('wasm', parsed)).toEqual([0, 1]);
    expect(probeRows('webgpu', parsed)).toEqual([1]);
    expect(selectRows(new Float32Array([1, 2, 3, 4, 5, 6]), [2, 0], 2)).toEqual(
      new Float32Array([5, 6, 1, 2]),
    );
    for (const bad of [[], [2], [0, 0], [0.5], 'x', null]) {
      expect(() => parseProbeRegistry(registry([set], bad))).toThrow(
        /"webgpu": not a list of distinct rows of "texts" \(0 to 1\)/,
      );
    }
  });

  it("keeps WebGPU's probe to short texts (≤ 90 characters, MiniLM ≤ 25 tokens)", () => {
    // SwiftShader (WebGPU on the CPU) took past 300 s for all 24 texts, padded to 79 tokens.
    expect(PROBES.webgpu.length).toBeGreaterThanOrEqual(8);
    expect(PROBES.webgpu.map((i) => PROBES.texts[i].length).every((n) => n <= 90)).toBe(true);
  });

  it('refuses a reference file of the wrong size, naming it', () => {
    expect(() => probeVectors(new Uint8Array(12), 2, 2, 'probes/x.f32')).toThrow(
      'probes/x.f32: 12 bytes, not 2 × 2 float32',
    );
  });
});
