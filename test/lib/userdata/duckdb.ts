import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Catalog } from '../../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import { inmindTaskRows } from '../../../src/lib/datasets/inmind.ts';
import type { ByteSource } from '../../../src/lib/userdata/byte-source.ts';
import { inspectUserFile } from '../../../src/lib/userdata/inspect.ts';
import {
  loadUserFile,
  planFrom,
  type LoadPlan,
  type LoadResult,
} from '../../../src/lib/userdata/load.ts';
import type { RecordOptions } from '../../../src/lib/userdata/records.ts';
import { repoRoot } from './helpers.ts';

/** A Node DuckDB-WASM catalog holding the real InMind tasks, as the app has after start-up. */
export async function catalogWithInmind(): Promise<Catalog> {
  const catalog = new Catalog(await openNodeEngine());
  const file = path.join(repoRoot, 'public/data/inmind/inmind_en.jsonl');
  await catalog.loadRows(
    'inmind_tasks',
    inmindTaskRows(readFileSync(file, 'utf8')),
    'inmind_en.jsonl',
  );
  return catalog;
}

/** What MyDataPage does: inspect, take the suggested plan (optionally changed), load. */
export async function loadAsPage(
  catalog: Catalog,
  source: ByteSource,
  change: Partial<LoadPlan> = {},
  options: RecordOptions = {},
): Promise<LoadResult> {
  const inspection = await inspectUserFile(source, options);
  return loadUserFile(catalog, source, { ...planFrom(inspection), ...change }, options);
}

/** Every table (hidden ones included) with its row count. */
export async function tableCounts(catalog: Catalog): Promise<Record<string, number>> {
  const rows = await catalog.query(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY 1",
  );
  const counts: Record<string, number> = {};
  for (const r of rows) counts[String(r.table_name)] = await catalog.count(String(r.table_name));
  return counts;
}
