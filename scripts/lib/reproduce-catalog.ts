/**
 * The reproduce CLI's DuckDB: the site folder loaded by the app's own loaders, or one reader's
 * `--benchmark-file` loaded and declared as the Your data page does.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadBenchmarkData, loadCoreData } from '../../src/lib/loaders/core-loader.ts';
import { loadSiteIndex } from '../../src/lib/data/fetch-source.ts';
import { Catalog } from '../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../src/lib/db/node-engine.ts';
import { benchmarkById, protocolEntries } from '../../src/lib/benchmarks/registry.ts';
import { errorMessage } from '../../src/lib/common/error-message.ts';
import { bytesSource } from '../../src/lib/userdata/byte-source.ts';
import { inspectUserFile } from '../../src/lib/userdata/inspect.ts';
import { loadUserFile, planFrom } from '../../src/lib/userdata/load.ts';
import { decodeDecl, type UserBenchmarkDecl } from '../../src/lib/userdata/benchmark-decl.ts';
import {
  fieldChoices,
  suggestDecl,
  readUserTableRows,
} from '../../src/lib/userdata/benchmark-rows.ts';
import { declareUserBenchmark } from '../../src/lib/userdata/declare.ts';
import { readDeclaration } from '../../src/lib/protocol-kit/user-benchmark.ts';
import type { ProtocolSpec } from '../../src/lib/protocols/build.ts';
import { readInputFile } from './input-file.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Node's fetch has no file: URLs; the loaders only need status, text and bytes. */
const fileFetch: typeof fetch = async (input) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  try {
    return new Response(await readFile(fileURLToPath(url)));
  } catch {
    return new Response('not found', { status: 404 });
  }
};

/** The app's start-up path (site index, DuckDB-WASM, core and benchmark loaders) over a folder. */
/**
 * Whether protocol `id` reads the conversation benchmarks' tables (loaded after the core data);
 * InMind's protocols read only the core's, so their runs skip the rest (about a second of a
 * four-second run). An unknown id loads everything.
 */
export function needsBenchmarkTables(id: string): boolean {
  const def = benchmarkById(protocolEntries().find((p) => p.id === id)?.benchmark ?? '');
  return def?.dataset?.phase !== 'core';
}

export async function openSiteCatalog(
  site: string,
  { benchmarks = true }: { benchmarks?: boolean } = {},
): Promise<{ catalog: Catalog; close: () => Promise<void> }> {
  const engine = await openNodeEngine();
  const catalog = new Catalog(engine);
  const resultsFiles = [];
  for (const folder of ['data/results', 'data/reproduced']) {
    const dir = path.join(root, folder);
    const names = (await readdir(dir).catch(() => [])).filter((f) => f.endsWith('.csv')).sort();
    for (const f of names) {
      resultsFiles.push({ name: `${folder}/${f}`, url: pathToFileURL(path.join(dir, f)).href });
    }
  }
  const siteBase = pathToFileURL(`${site}${path.sep}`).href;
  const fetchOpts = {
    siteBase,
    allowUpstream: false,
    fetchImpl: fileFetch,
    siteFiles: await loadSiteIndex(siteBase, fileFetch),
  };
  const steps = [
    ...(await loadCoreData(catalog, fetchOpts, () => undefined, resultsFiles)),
    ...(benchmarks ? await loadBenchmarkData(catalog, fetchOpts, () => undefined) : []),
  ];
  const failed = steps.filter((s) => s.state === 'error');
  if (failed.length > 0) {
    await engine.close();
    const detail = failed.map((s) => `${s.label}: ${s.detail}`).join('; ');
    throw new Error(`${detail} (run \`npm run data\` first)`);
  }
  return { catalog, close: () => engine.close() };
}

/** The declaration `--mapping` names, or the one Your data suggests for the loaded table. */
async function declarationFor(
  catalog: Catalog,
  table: string,
  mapping: string | null,
): Promise<UserBenchmarkDecl> {
  if (mapping === null) {
    return suggestDecl(fieldChoices(await readUserTableRows(catalog, table)));
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse((await readInputFile(mapping, '--mapping (a declaration)')).toString());
  } catch (err) {
    throw new Error(`--mapping ${path.relative(process.cwd(), mapping)}: ${errorMessage(err)}`);
  }
  return decodeDecl(parsed, path.relative(process.cwd(), mapping));
}

/** `declaration.json` beside a `--benchmark-file` run's outputs: what `--mapping` reads back. */
export async function writeDeclaration(
  catalog: Catalog,
  opts: { spec: ProtocolSpec },
  dir: string,
): Promise<string> {
  const file = path.join(dir, 'declaration.json');
  const decl = await readDeclaration(catalog, opts.spec.benchmark);
  await writeFile(file, `${JSON.stringify(decl, null, 2)}\n`);
  return file;
}

/**
 * `--benchmark-file`: a DuckDB holding only that file, loaded and declared as the Your data page
 * does (inspect, the suggested field mapping, the declaration checked against every row).
 */
export async function openBenchmarkFileCatalog(
  file: string,
  mapping: string | null,
): Promise<{ catalog: Catalog; close: () => Promise<void> }> {
  const engine = await openNodeEngine();
  const catalog = new Catalog(engine);
  try {
    const bytes = await readInputFile(file, '--benchmark-file (JSONL, JSON, CSV, TSV or Parquet)');
    const source = bytesSource(path.basename(file), bytes);
    const plan = planFrom(await inspectUserFile(source));
    const { table } = await loadUserFile(catalog, source, plan);
    await declareUserBenchmark(catalog, table, await declarationFor(catalog, table, mapping));
  } catch (err) {
    await engine.close();
    throw err;
  }
  return { catalog, close: () => engine.close() };
}
