// Browser storage errors in words: a full quota is the reader's to fix, so it says so.
import { errorMessage } from './error-message.ts';
import { formatBytes } from './format-bytes.ts';

/** True for the errors browsers raise when a cache or IndexedDB write exceeds the quota. */
export function isQuotaError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null || !('name' in err)) return false;
  const name = String(err.name);
  const message = 'message' in err ? String(err.message) : '';
  return name === 'QuotaExceededError' || /quota/i.test(message);
}

/** What to tell the reader when saving `what` failed. */
export function storageMessage(err: unknown, what: string): string {
  if (isQuotaError(err)) {
    return `browser storage full: ${what} could not be saved (free space or allow this site more storage)`;
  }
  const detail = errorMessage(err);
  return `${what} could not be saved: ${detail || (err instanceof Error ? err.name : 'unknown error')}`;
}

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
