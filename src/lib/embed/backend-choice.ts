import type { AdapterReport } from './webgpu.ts';
import { errorMessage } from '../common/error-message.ts';
import { probeSummary, type ProbeVerdict } from './probe-check.ts';

export const DEVICE_CHOICES = ['auto', 'webgpu', 'wasm'] as const;
export type DeviceChoice = (typeof DEVICE_CHOICES)[number];
export type WebBackend = 'webgpu' | 'wasm';

export interface BackendChoice<T> {
  value: T;
  backend: WebBackend;
  /** Why WebGPU is not the backend; null when it is. */
  fallbackReason: string | null;
  /** WebGPU runs on a software adapter (forced by the reader): what emulates it. */
  emulated: string | null;
}

/**
 * WebGPU when asked for (or on auto) and it loads and passes its probe; WASM otherwise, with
 * the reason kept so a fallback is never silent. Auto never picks a software adapter: SwiftShader
 * runs WebGPU on the CPU about ten times slower than WASM. Forced WebGPU still runs there, marked.
 */
export async function chooseBackend<T>(
  choice: DeviceChoice,
  adapter: () => Promise<AdapterReport>,
  loadWebgpu: () => Promise<T>,
  loadWasm: () => Promise<T>,
): Promise<BackendChoice<T>> {
  if (choice === 'wasm') {
    return wasm(loadWasm, 'WASM was chosen');
  }
  const report = await adapter();
  if (!report.available) return wasm(loadWasm, `no WebGPU: ${report.reason}`);
  if (report.software && choice === 'auto') {
    return wasm(loadWasm, `no hardware GPU: WebGPU's adapter is ${report.software}`);
  }
  let reason: string;
  try {
    const value = await loadWebgpu();
    return { value, backend: 'webgpu', fallbackReason: null, emulated: report.software };
  } catch (error) {
    reason = `WebGPU probe failed: ${errorMessage(error)}`;
  }
  return wasm(loadWasm, reason);
}

async function wasm<T>(loadWasm: () => Promise<T>, reason: string): Promise<BackendChoice<T>> {
  return { value: await loadWasm(), backend: 'wasm', fallbackReason: reason, emulated: null };
}

/** The backend that ran and the probe it passed, as the result line, the CSV and exports say it. */
export function backendLabel(info: {
  backend: WebBackend;
  emulated?: string | null;
  probe?: ProbeVerdict | null;
}): string {
  const checked = info.probe ? ` · ${probeSummary(info.probe)}` : '';
  if (info.backend === 'wasm') return `WASM${checked}`;
  const name = info.emulated ? `WebGPU (emulated on the CPU: ${info.emulated})` : 'WebGPU';
  return `${name}${checked}`;
}
