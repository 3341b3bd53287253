// Just enough of the WebGPU API to ask for an adapter; TypeScript's DOM lib has no WebGPU types.
import { errorMessage } from '../common/error-message.ts';

interface GpuAdapterInfoLike {
  vendor?: string;
  architecture?: string;
  device?: string;
  description?: string;
  /** Newer Chromium moves the flag here from the adapter. */
  isFallbackAdapter?: boolean;
}

export interface GpuAdapterLike {
  info?: GpuAdapterInfoLike;
  isFallbackAdapter?: boolean;
}

interface GpuLike {
  requestAdapter(options?: { powerPreference?: string }): Promise<GpuAdapterLike | null>;
}

export type AdapterReport =
  | {
      available: true;
      vendor: string;
      architecture: string;
      device: string;
      description: string;
      /** Why this adapter is a software one (WebGPU emulated on the CPU); null for hardware. */
      software: string | null;
    }
  | { available: false; reason: string };

// SwiftShader, Mesa's llvmpipe/lavapipe, WARP: GPUs emulated on the CPU, slower than WASM.
const SOFTWARE_NAMES =
  /swiftshader|llvmpipe|lavapipe|softpipe|microsoft basic render|\bwarp\b|\bcpu\b/i;

/** Why an adapter counts as no GPU at all: a fallback adapter or a CPU renderer by name. */
export function softwareAdapterReason(adapter: GpuAdapterLike): string | null {
  const info = adapter.info ?? {};
  const name = [info.vendor, info.architecture, info.device, info.description]
    .filter(Boolean)
    .join(' ');
  if (adapter.isFallbackAdapter === true || info.isFallbackAdapter === true) {
    return `a fallback adapter (${name || 'isFallbackAdapter'})`;
  }
  const match = SOFTWARE_NAMES.exec(name);
  return match ? `a software adapter (${match[0]})` : null;
}

function gpuOf(nav: object): GpuLike | undefined {
  const gpu: unknown = 'gpu' in nav ? nav.gpu : undefined;
  return typeof gpu === 'object' && gpu !== null && 'requestAdapter' in gpu
    ? (gpu as GpuLike)
    : undefined;
}

export async function requestAdapterReport(nav: object = navigator): Promise<AdapterReport> {
  const gpu = gpuOf(nav);
  if (!gpu) {
    return {
      available: false,
      reason: 'navigator.gpu is missing (WebGPU unsupported, disabled, or not a secure context)',
    };
  }
  try {
    const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (!adapter) return { available: false, reason: 'requestAdapter() returned no adapter' };
    const info = adapter.info ?? {};
    return {
      available: true,
      vendor: info.vendor ?? '',
      architecture: info.architecture ?? '',
      device: info.device ?? '',
      description: info.description ?? '',
      software: softwareAdapterReason(adapter),
    };
  } catch (error) {
    return { available: false, reason: `requestAdapter() failed: ${errorMessage(error)}` };
  }
}

export function describeAdapter(report: AdapterReport): string {
  if (!report.available) return report.reason;
  const parts = [report.vendor, report.architecture, report.device, report.description];
  return parts.filter(Boolean).join(' · ') || 'unnamed adapter';
}
