import { describe, expect, it } from 'vitest';
import {
  HISTORY_KEY,
  HISTORY_LIMIT,
  addToHistory,
  clearHistory,
  readHistory,
  type HistoryStorage,
} from '../../../../src/features/console/core/history.ts';

function memoryStorage(initial: Record<string, string> = {}): HistoryStorage & {
  data: Map<string, string>;
} {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
  };
}

const at = '2026-12-01T12:00:00.000Z';

describe('the query history', () => {
  it('keeps the newest first, one entry per text, at most 50', () => {
    const store = memoryStorage();
    for (let i = 0; i < HISTORY_LIMIT + 5; i++)
      addToHistory(store, { sql: `SELECT ${i}`, rows: 1 }, at);
    addToHistory(store, { sql: '  SELECT 7 ', rows: 1 }, at);
    const list = readHistory(store);
    expect(list).toHaveLength(HISTORY_LIMIT);
    expect(list[0]).toEqual({ sql: 'SELECT 7', rows: 1, at });
    expect(list.filter((e) => e.sql === 'SELECT 7')).toHaveLength(1);
    expect(list.at(-1)?.sql).toBe('SELECT 5');
  });

  it('reads a damaged store as empty and drops entries of the wrong shape', () => {
    expect(readHistory(memoryStorage({ [HISTORY_KEY]: '{not json' }))).toEqual([]);
    const mixed = JSON.stringify([{ sql: 'SELECT 1', at, rows: null }, { sql: 3 }, 'x']);
    expect(readHistory(memoryStorage({ [HISTORY_KEY]: mixed }))).toEqual([
      { sql: 'SELECT 1', at, rows: null },
    ]);
  });

  it('survives a store that refuses to write, and clears', () => {
    const refusing: HistoryStorage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(addToHistory(refusing, { sql: 'SELECT 1', rows: 1 }, at)).toHaveLength(1);
    const store = memoryStorage();
    addToHistory(store, { sql: 'SELECT 1', rows: 1 });
    expect(clearHistory(store)).toEqual([]);
    expect(readHistory(store)).toEqual([]);
  });
});
