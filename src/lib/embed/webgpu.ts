// Just enough of the WebGPU API to ask for an adapter; TypeScript's DOM lib has no WebGPU types.
import { errorMessage } from '../common/error-message.ts';

interface GpuAdapterInfoLike {
  vendor?: string;
  architecture?: string;
  device?: string;
  description?: string;
}

interface GpuAdapterLike {
  info?: GpuAdapterInfoLike;
}

interface GpuLike {
  requestAdapter(options?: { powerPreference?: string }): Promise<GpuAdapterLike | null>;
}

export type AdapterReport =
  | { available: true; vendor: string; architecture: string; device: string; description: string }
  | { available: false; reason: string };

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
