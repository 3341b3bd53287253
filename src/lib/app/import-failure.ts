// Why a pack import failed, in words; loaded only when one fails (kept off the first load).
import { errorMessage } from '../common/error-message.ts';
import { formatBytes } from '../common/format-bytes.ts';
import { isQuotaError } from '../common/storage-error.ts';

/** What the browser says it holds for this site (navigator.storage.estimate), when it says. */
export interface StorageEstimateFigures {
  usage?: number;
  quota?: number;
}

/**
 * Why importing `file` failed. A full storage is said in words (some browsers' QuotaExceededError
 * has an empty message), with the file's size, what the site uses of its quota, and what to do.
 */
export function importFailureMessage(
  file: string,
  err: unknown,
  bytes: number | null,
  estimate: StorageEstimateFigures | null = null,
): string {
  if (isQuotaError(err)) {
    const need = bytes === null ? '' : `; the file holds ${formatBytes(bytes)}`;
    const used =
      estimate?.usage !== undefined && estimate.quota !== undefined
        ? `, ${formatBytes(estimate.usage)} of ${formatBytes(estimate.quota)} used`
        : '';
    return (
      `Could not import ${file}: browser storage for this site is full${used}${need}. ` +
      'Free space (Clear cache on this page, or remove tables kept on Your data) or allow this site more storage, then import it again.'
    );
  }
  const detail = errorMessage(err) || (err instanceof Error ? err.name : '') || 'unknown error';
  return `Could not import ${file}: ${detail}`;
}

/** The same, with the site's storage use and quota where the browser says. */
export async function importFailure(file: string, err: unknown, bytes: number | null) {
  let estimate: StorageEstimateFigures | null = null;
  try {
    estimate = (await globalThis.navigator?.storage?.estimate?.()) ?? null;
  } catch {
    estimate = null;
  }
  return importFailureMessage(file, err, bytes, estimate);
}
