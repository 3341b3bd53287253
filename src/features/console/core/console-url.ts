// The console's state in the URL: `#/console?sql=…` holds the text, `run=1` says it was run, so
// a copied link opens on the same query and result.
import { formatHash } from '../../../lib/common/url-state.ts';
import { hasStatement } from './statements.ts';

export const CONSOLE_PAGE = 'console';

export interface ConsoleUrlState {
  sql: string;
  run: boolean;
}

export function readConsoleParams(params: Readonly<Record<string, string>>): ConsoleUrlState {
  return { sql: params.sql ?? '', run: params.run === '1' };
}

export function consoleParams(state: ConsoleUrlState): Record<string, string | null> {
  return { sql: state.sql || null, run: state.run && state.sql ? '1' : null };
}

/** `#/console?run=1&sql=…` for a chart's SQL; null when the text holds no statement to run. */
export function consoleLink(sql: string): string | null {
  if (!hasStatement(sql)) return null;
  return formatHash({ page: CONSOLE_PAGE, params: { sql, run: '1' } });
}
