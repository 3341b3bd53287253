// Vite plugin (build time, Node): runs every results chart's SQL with DuckDB-WASM's Node build over
// data/results/*.csv and emits the rows as chart-snapshot.json, so the first chart needs no database.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';
import { Catalog } from '../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../src/lib/db/node-engine.ts';
import { loadResults } from '../../src/lib/loaders/core-loader.ts';
import { PAPERS } from '../../src/lib/benchmarks/registry.ts';
import {
  CHART_SNAPSHOT_FILE,
  buildChartSnapshot,
  type ChartSnapshot,
} from '../../src/lib/benchmarks/chart-snapshot.ts';

/** The snapshot from the CSVs under `root`, loaded exactly as the site loads them. */
export async function chartSnapshotFromCsvs(root: string): Promise<ChartSnapshot> {
  const engine = await openNodeEngine();
  try {
    const catalog = new Catalog(engine);
    const files = PAPERS.map((p) => ({ name: `data/results/${p}.csv`, url: p }));
    const readCsv = async (input: string | URL | Request): Promise<Response> => {
      const paper = String(input);
      const text = await readFile(path.join(root, 'data/results', `${paper}.csv`), 'utf8');
      return new Response(text, { headers: { 'Content-Type': 'text/csv' } });
    };
    await loadResults(catalog, files, readCsv);
    return await buildChartSnapshot(catalog);
  } finally {
    await engine.close();
  }
}

export function chartSnapshot(): Plugin {
  let config: ResolvedConfig;
  let json: Promise<string> | null = null;
  const source = () => (json ??= chartSnapshotFromCsvs(config.root).then(JSON.stringify));
  return {
    name: 'memlens-chart-snapshot',
    configResolved(resolved) {
      config = resolved;
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (!req.url?.split('?')[0].endsWith(`/${CHART_SNAPSHOT_FILE}`)) return next();
        source().then(
          (body) => res.setHeader('Content-Type', 'application/json').end(body),
          (err: unknown) => next(err),
        );
      });
    },
    async generateBundle() {
      if (config.build.ssr) return;
      this.emitFile({ type: 'asset', fileName: CHART_SNAPSHOT_FILE, source: await source() });
    },
  };
}
