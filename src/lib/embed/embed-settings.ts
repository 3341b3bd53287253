// The Embeddings page's choices as they sit in the URL (`model`, `device`, `dtype`).
import { DEVICE_CHOICES, type DeviceChoice, type WebBackend } from './backend-choice.ts';
import { listModelSpecs, type ModelDtype, type ModelSpec } from './model-registry.ts';
import { TEST_HOOKS } from './test-hooks.ts';

export interface EmbedSettings {
  spec: ModelSpec;
  device: DeviceChoice;
  dtype: ModelDtype;
  /** `webgpuProbe=fail`: a test aid that makes the WebGPU probe fail (test builds only). */
  failWebgpuProbe: boolean;
  /** `probePerturb=webgpu|wasm`: a test aid that perturbs that backend's vectors (test builds only). */
  perturbProbe: WebBackend | null;
}

/**
 * Unknown or unsupported values fall back to defaults rather than failing the page. Without a
 * `model` in the URL the page starts on `defaultId` (a model the site serves), else the first.
 * `webgpuProbe=fail` counts only in test builds.
 */
export function readEmbedSettings(
  params: Record<string, string>,
  specs: readonly ModelSpec[] = listModelSpecs(),
  defaultId?: string,
): EmbedSettings {
  const spec =
    specs.find((s) => s.id === params.model) ?? specs.find((s) => s.id === defaultId) ?? specs[0];
  const device = DEVICE_CHOICES.find((d) => d === params.device) ?? 'auto';
  const dtype = spec.dtypes.find((d) => d === params.dtype) ?? spec.dtypes[0];
  const perturbProbe = TEST_HOOKS ? asksPerturbation(params) : null;
  return {
    spec,
    device,
    dtype,
    failWebgpuProbe: TEST_HOOKS && asksProbeFailure(params),
    perturbProbe,
  };
}

/** The `webgpuProbe=fail` test aid; a plain function so that production builds drop it whole. */
export function asksProbeFailure(params: Record<string, string>): boolean {
  return params.webgpuProbe === 'fail';
}

/** The `probePerturb=<backend>` test aid; a plain function so that production builds drop it whole. */
export function asksPerturbation(params: Record<string, string>): WebBackend | null {
  return params.probePerturb === 'webgpu' || params.probePerturb === 'wasm'
    ? params.probePerturb
    : null;
}

/** URL changes for a new choice; defaults are left out to keep links short. */
export function settingsParams(
  settings: Pick<EmbedSettings, 'spec' | 'device' | 'dtype'>,
  specs: readonly ModelSpec[] = listModelSpecs(),
  defaultId: string = specs[0].id,
): Record<string, string | null> {
  const { spec, device, dtype } = settings;
  return {
    model: spec.id === defaultId ? null : spec.id,
    device: device === 'auto' ? null : device,
    dtype: dtype === spec.dtypes[0] ? null : dtype,
  };
}
