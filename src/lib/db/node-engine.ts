import { createRequire } from 'node:module';
import path from 'node:path';
import {
  LOCKDOWN_SQL,
  StatementCancelledError,
  arrowColumns,
  arrowToRows,
  type ArrowSchemaLike,
  type SqlEngine,
  type SqlParam,
  type SqlRow,
} from './engine.ts';

interface BlockingStatement {
  query(...params: SqlParam[]): Parameters<typeof arrowToRows>[0];
  close(): void;
}
type BlockingTable = Parameters<typeof arrowToRows>[0] & { schema: ArrowSchemaLike };

interface BlockingConnection {
  query(sql: string): BlockingTable;
  prepare(sql: string): BlockingStatement;
  insertJSONFromPath(name: string, options: { name: string }): void;
  close(): void;
}
interface BlockingDb {
  instantiate(): Promise<unknown>;
  open(config: object): void;
  connect(): BlockingConnection;
  registerFileText(name: string, text: string): void;
  dropFile(name: string): void;
  reset(): void;
}
interface BlockingModule {
  createDuckDB(bundles: object, logger: object, runtime: object): Promise<BlockingDb>;
  VoidLogger: new () => object;
  NODE_RUNTIME: object;
}

/** The same DuckDB-WASM build, run synchronously in Node for tests and the CLI. */
export async function openNodeEngine(): Promise<SqlEngine> {
  const require = createRequire(import.meta.url);
  const mod = require('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs') as BlockingModule;
  const dist = path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm'));
  const bundles = {
    mvp: {
      mainModule: path.join(dist, 'duckdb-mvp.wasm'),
      mainWorker: path.join(dist, 'duckdb-node-mvp.worker.cjs'),
    },
    eh: {
      mainModule: path.join(dist, 'duckdb-eh.wasm'),
      mainWorker: path.join(dist, 'duckdb-node-eh.worker.cjs'),
    },
  };
  const db = await mod.createDuckDB(bundles, new mod.VoidLogger(), mod.NODE_RUNTIME);
  await db.instantiate();
  db.open({ query: { castBigIntToDouble: true, castDecimalToDouble: true } });
  const conn = db.connect();
  conn.query(LOCKDOWN_SQL);
  return {
    async query(sql: string, params?: readonly SqlParam[]): Promise<SqlRow[]> {
      if (!params?.length) return arrowToRows(conn.query(sql));
      const statement = conn.prepare(sql);
      try {
        return arrowToRows(statement.query(...params));
      } finally {
        statement.close();
      }
    },
    async registerText(name: string, text: string): Promise<void> {
      db.registerFileText(name, text);
    },
    async insertJsonFromPath(name: string, table: string): Promise<void> {
      conn.insertJSONFromPath(name, { name: table });
    },
    async dropFile(name: string): Promise<void> {
      db.dropFile(name);
    },
    // Node runs each statement to its end in one call: there is nothing to cancel midway, but
    // a run cancelled before a statement starts stops there, as in the browser.
    async openStatementRunner() {
      const own = db.connect();
      const stopIfCancelled = (signal?: AbortSignal) => {
        if (signal?.aborted) throw new StatementCancelledError();
      };
      return {
        async run(sql: string, maxRows: number, signal?: AbortSignal) {
          stopIfCancelled(signal);
          const table = own.query(sql);
          const rows = arrowToRows(table);
          return {
            columns: arrowColumns(table.schema),
            rows: rows.slice(0, maxRows),
            truncated: rows.length > maxRows,
          };
        },
        async check(sql: string, signal?: AbortSignal) {
          stopIfCancelled(signal);
          own.prepare(sql).close();
        },
        cancel: async () => false,
        close: async () => own.close(),
      };
    },
    async close(): Promise<void> {
      conn.close();
    },
  };
}
