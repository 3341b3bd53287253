import * as duckdb from '@duckdb/duckdb-wasm';
import mvpWasm from '@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url';
import mvpWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-mvp.worker.js?url';
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import ehWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import { OFFLINE_SETTINGS_SQL, arrowToRows, type SqlEngine, type SqlRow } from './engine.ts';

/** Bundles served by the site itself (Vite `?url` imports), never jsDelivr. */
const BUNDLES: duckdb.DuckDBBundles = {
  mvp: { mainModule: mvpWasm, mainWorker: mvpWorker },
  eh: { mainModule: ehWasm, mainWorker: ehWorker },
};

export async function openBrowserEngine(): Promise<SqlEngine> {
  const bundle = await duckdb.selectBundle(BUNDLES);
  if (!bundle.mainWorker) throw new Error('DuckDB-WASM: no worker bundle for this browser');
  const worker = new Worker(bundle.mainWorker);
  const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker);
  await db.instantiate(bundle.mainModule, bundle.pthreadWorker);
  await db.open({ query: { castBigIntToDouble: true } });
  const conn = await db.connect();
  await conn.query(OFFLINE_SETTINGS_SQL);
  return {
    async query(sql: string): Promise<SqlRow[]> {
      return arrowToRows(await conn.query(sql));
    },
    async registerText(name: string, text: string): Promise<void> {
      await db.registerFileText(name, text);
    },
    async insertJsonFromPath(name: string, table: string): Promise<void> {
      await conn.insertJSONFromPath(name, { name: table });
    },
    async dropFile(name: string): Promise<void> {
      await db.dropFile(name);
    },
    async close(): Promise<void> {
      await conn.close();
      await db.terminate();
      worker.terminate();
    },
  };
}
