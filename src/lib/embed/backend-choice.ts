import type { AdapterReport } from './webgpu.ts';
import { errorMessage } from '../common/error-message.ts';

export const DEVICE_CHOICES = ['auto', 'webgpu', 'wasm'] as const;
export type DeviceChoice = (typeof DEVICE_CHOICES)[number];
export type WebBackend = 'webgpu' | 'wasm';

export interface BackendChoice<T> {
  value: T;
  backend: WebBackend;
  /** Why WebGPU is not the backend; null when it is. */
  fallbackReason: string | null;
}

/**
 * WebGPU when asked for (or on auto) and it loads and passes its probe; WASM otherwise, with
 * the reason kept so a fallback is never silent.
 */
export async function chooseBackend<T>(
  choice: DeviceChoice,
  adapter: () => Promise<AdapterReport>,
  loadWebgpu: () => Promise<T>,
  loadWasm: () => Promise<T>,
): Promise<BackendChoice<T>> {
  if (choice === 'wasm') {
    return { value: await loadWasm(), backend: 'wasm', fallbackReason: 'WASM was chosen' };
  }
  const report = await adapter();
  let reason: string;
  if (!report.available) {
    reason = `no WebGPU: ${report.reason}`;
  } else {
    try {
      return { value: await loadWebgpu(), backend: 'webgpu', fallbackReason: null };
    } catch (error) {
      reason = `WebGPU probe failed: ${errorMessage(error)}`;
    }
  }
  return { value: await loadWasm(), backend: 'wasm', fallbackReason: reason };
}
