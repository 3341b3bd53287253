// Browser storage errors in words: a full quota is the reader's to fix, so it says so.
import { errorMessage } from './error-message.ts';

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
