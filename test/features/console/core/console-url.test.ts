import { describe, expect, it } from 'vitest';
import {
  consoleLink,
  consoleParams,
  readConsoleParams,
} from '../../../../src/features/console/core/console-url.ts';
import { parseHash } from '../../../../src/lib/common/url-state.ts';

describe('the console in the URL', () => {
  it('links a chart SQL so that it opens and runs, and reads back the same text', () => {
    const sql = `SELECT "row", value FROM results WHERE paper = 'inmind' AND value > 50 -- & ?`;
    const link = consoleLink(sql);
    expect(link).toMatch(/^#\/console\?run=1&sql=/);
    const view = parseHash(link!);
    expect(view.page).toBe('console');
    expect(readConsoleParams(view.params)).toEqual({ sql, run: true });
  });

  it('offers no link for SQL that is only a comment', () => {
    expect(consoleLink('-- computed in the browser by src/lib/protocols')).toBeNull();
  });

  it('drops empty text and a run flag without text', () => {
    expect(consoleParams({ sql: '', run: true })).toEqual({ sql: null, run: null });
    expect(consoleParams({ sql: 'SELECT 1', run: false })).toEqual({ sql: 'SELECT 1', run: null });
    expect(readConsoleParams({})).toEqual({ sql: '', run: false });
  });
});
