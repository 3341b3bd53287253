// The console's last queries, kept in localStorage: newest first, one entry per text.

export interface HistoryEntry {
  sql: string;
  /** ISO time of the run. */
  at: string;
  /** Rows read, or null when the run failed or was cancelled. */
  rows: number | null;
}

export type HistoryStorage = Pick<Storage, 'getItem' | 'setItem'>;

export const HISTORY_KEY = 'memlens-console-history';
export const HISTORY_LIMIT = 50;

function isEntry(v: unknown): v is HistoryEntry {
  if (typeof v !== 'object' || v === null) return false;
  const e = new Map(Object.entries(v));
  const rows = e.get('rows');
  return (
    typeof e.get('sql') === 'string' &&
    typeof e.get('at') === 'string' &&
    (rows === null || typeof rows === 'number')
  );
}

/** What the store holds; anything unreadable (another version, a hand edit) counts as empty. */
export function readHistory(storage: HistoryStorage): HistoryEntry[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(HISTORY_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isEntry).slice(0, HISTORY_LIMIT) : [];
  } catch {
    return [];
  }
}

/** Puts `entry` first (dropping an older run of the same text) and keeps the newest 50. */
export function addToHistory(
  storage: HistoryStorage,
  entry: Omit<HistoryEntry, 'at'>,
  at: string = new Date().toISOString(),
): HistoryEntry[] {
  const text = entry.sql.trim();
  const next = [
    { ...entry, sql: text, at },
    ...readHistory(storage).filter((e) => e.sql.trim() !== text),
  ].slice(0, HISTORY_LIMIT);
  try {
    storage.setItem(HISTORY_KEY, JSON.stringify(next));
  } catch {
    // A full or refused store keeps this session's list only.
  }
  return next;
}

export function clearHistory(storage: HistoryStorage): HistoryEntry[] {
  try {
    storage.setItem(HISTORY_KEY, '[]');
  } catch {
    // Nothing to keep.
  }
  return [];
}
