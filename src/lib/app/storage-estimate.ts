// What this site holds in the browser's storage, in words, from navigator.storage.estimate().
import { formatBytes } from '../common/format-bytes.ts';

export interface StorageEstimator {
  estimate(): Promise<{ usage?: number; quota?: number }>;
}

/** "12.0 KiB of 1.0 GiB", or null where the browser gives no estimate. */
export async function storageUsed(storage: StorageEstimator | undefined): Promise<string | null> {
  if (!storage) return null;
  try {
    const { usage, quota } = await storage.estimate();
    if (usage === undefined) return null;
    return quota === undefined
      ? formatBytes(usage)
      : `${formatBytes(usage)} of ${formatBytes(quota)}`;
  } catch {
    return null;
  }
}
