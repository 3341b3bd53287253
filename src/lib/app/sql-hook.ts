// `window.memlensSql(sql)`, in test builds only (TEST_HOOKS): runs SQL on the app's own DuckDB
// connection, past the console's guard, so e2e tests can show what DuckDB's locked
// configuration refuses by itself in Chromium. `npm run build` leaves it out.
import type { Catalog } from '../db/catalog.ts';
import { TEST_HOOKS } from '../embed/test-hooks.ts';
import { errorMessage } from '../common/error-message.ts';

declare global {
  interface Window {
    memlensSql?: (sql: string) => Promise<{ rows: unknown[] } | { error: string }>;
  }
}

export function installSqlHook(catalog: Catalog): void {
  if (!TEST_HOOKS) return;
  window.memlensSql = (sql) =>
    catalog.query(sql).then(
      (rows) => ({ rows }),
      (err: unknown) => ({ error: errorMessage(err) }),
    );
}
