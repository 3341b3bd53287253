// Tests mirror src/lib and src/features file by file: src/lib/x/y.ts has test/lib/x/y.test.ts,
// src/features/f/core/y.ts has test/features/f/core/y.test.ts, or it is listed below with the
// reason it has none. Tests of scripts live under test/scripts/, named after the script.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const COVERED_BY_PAPER_CHARTS =
  'one spec per paper figure, each checked against its snapshot in test/lib/charts/paper-charts.test.ts';
const COVERED_BY_REPRODUCE_CHARTS =
  'its specs are checked in test/lib/charts/reproduce-charts.test.ts';
const TYPES_ONLY = 'types only: nothing runs';
const REGISTRY_ENTRY =
  'one registry entry: test/lib/benchmarks/registry.test.ts, the loader, CLI and explain tests';
const RUNES =
  'Svelte runes: the unit project does not compile .svelte.ts; every e2e runs it in the app';
const CATALOG_SQL =
  'SQL run on DuckDB by every test that opens a catalog (viewer-queries, core-loader, load, parquet, sql)';

/** Module (path under src/lib, or under src/ for features/) → why it has no mirrored test file. */
export const WITHOUT_MIRRORED_TEST: Readonly<Record<string, string>> = {
  'analysis/index.ts': 're-exports only',
  'app/import-failure.ts':
    "a pack import's failure text: test/lib/common/load-messages.test.ts, the load-messages e2e",
  'app/page-load-error.ts':
    "a page chunk's failure text: test/lib/common/load-messages.test.ts, the load-messages e2e",
  'common/stall-watch.ts':
    'the no-byte timer of downloads: test/lib/vectors/site-packs.test.ts, the no-hang e2e',
  'protocols/pack-label.ts':
    "a comparison's pack-label note: test/lib/vectors/pack-agreement.test.ts, the vector-checks e2e",
  'app/download.ts': 'DOM only (an <a download> click); exercised by the chart export e2e',
  'app/page-props.ts': TYPES_ONLY,
  'features/console/console-session.svelte.ts': RUNES,
  'app/data-session.svelte.ts': RUNES,
  'app/services.svelte.ts': RUNES,
  'app/use-query.svelte.ts': RUNES,
  'benchmarks/benchmark-def.ts': TYPES_ONLY,
  'benchmarks/inmind/options.ts':
    "InMind's option schema: test/lib/benchmarks/options.test.ts and the CLI and URL tests",
  'benchmarks/inmind/benchmark.ts': REGISTRY_ENTRY,
  'benchmarks/locomo/benchmark.ts': REGISTRY_ENTRY,
  'benchmarks/locomo-plus/benchmark.ts': REGISTRY_ENTRY,
  'benchmarks/locomo-conv/benchmark.ts': REGISTRY_ENTRY,
  'benchmarks/memuse/benchmark.ts': REGISTRY_ENTRY,
  'benchmarks/utilmem/benchmark.ts': REGISTRY_ENTRY,
  'query/sql-values.ts': TYPES_ONLY,
  'analysis/search-result.ts': TYPES_ONLY,
  'userdata/parquet-reader.ts': TYPES_ONLY,
  'userdata/persist-keep.ts':
    'keeping and removing: test/lib/userdata/persist.test.ts, the persistence and two-tabs e2e',
  'query/user-tables.ts':
    'user-table SQL: test/lib/userdata/load.test.ts, parquet.test.ts, normalize.test.ts',
  'charts/inmind-deltas.ts': COVERED_BY_PAPER_CHARTS,
  'charts/inmind-table1.ts': COVERED_BY_PAPER_CHARTS,
  'charts/inmind-table2.ts': COVERED_BY_PAPER_CHARTS,
  'benchmarks/locomo-conv/charts.ts': COVERED_BY_PAPER_CHARTS,
  'benchmarks/papers.ts': COVERED_BY_PAPER_CHARTS,
  'charts/memuse.ts': COVERED_BY_PAPER_CHARTS,
  'charts/provenance.ts': COVERED_BY_PAPER_CHARTS,
  'charts/utilmem.ts': COVERED_BY_PAPER_CHARTS,
  'charts/recall-curve.ts': COVERED_BY_REPRODUCE_CHARTS,
  'charts/release-scatter.ts': COVERED_BY_REPRODUCE_CHARTS,
  'charts/similarity-histogram.ts': COVERED_BY_REPRODUCE_CHARTS,
  'data/fetch-source.ts':
    'fetch with checks and fallbacks: test/lib/data/integrity.test.ts and the fault-injection e2e',
  'data/sources.ts':
    'reads data/sources.json: test/lib/offline/deploy-options.test.ts and the offline e2e',
  'datasets/conversation-items.ts':
    'test/lib/datasets/turn-window.test.ts (the virtual list it feeds)',
  'datasets/tables.ts':
    'table shapes: every adapter test and test/lib/protocols/similarity-protocols.test.ts',
  'datasets/validate.ts':
    'the shared checks behind every adapter test (inmind, locomo, jsonl, userdata)',
  'db/browser-engine.ts': 'DuckDB-WASM in a browser: every e2e',
  'db/catalog.ts': CATALOG_SQL,
  'db/node-engine.ts': CATALOG_SQL,
  'embed/browser-embedder-hub.ts':
    'wires BrowserEmbedder into the hub: test/lib/embed/browser-embedder.test.ts and every embedding e2e',
  'app/sql-hook.ts':
    'window.memlensSql, in test builds only: test/e2e/console-sandbox.test.ts drives it',
  'embed/automation.ts':
    'window.memlens, in test builds only: test/lib/embed/test-hooks.test.ts, embed-parity and embed-real-parity e2e',
  'embed/embedder.ts': TYPES_ONLY,
  'embed/node-embedder.ts':
    'onnxruntime-node against references: test/lib/embed/node-parity.test.ts, real-model-parity.test.ts',
  'embed/webgpu.ts': 'navigator.gpu: test/lib/embed/backend-choice.test.ts and embed-failures e2e',
  'embed/worker-model.ts': 'transformers.js inside the worker: every embedding e2e',
  'embed/worker-protocol.ts': TYPES_ONLY,
  'offline/build-flags.ts': 'Vite build-time constants; off under Node: the offline e2e',
  'offline/messages.ts': 'test/lib/offline/status.test.ts and the offline e2e',
  'protocol-kit/bm25-retriever.ts': 'test/lib/protocol-kit/inmind.test.ts and bm25-shared.test.ts',
  'protocols/build.ts': 'test/lib/protocols/comparability.test.ts and the CLI tests',
  'protocol-kit/figures.ts': 'composes summary and report for the Reproduce page: reproduce-* e2e',
  'protocol-kit/inputs.ts': 'test/lib/protocol-kit/locomo-plus-release.test.ts and the CLI tests',
  'protocol-kit/locomo-plus.ts': 'test/lib/protocols/similarity-protocols.test.ts',
  'protocol-kit/locomo.ts': 'test/lib/protocols/similarity-protocols.test.ts',
  'protocol-kit/paper.ts': 'test/lib/protocols/paper-report.test.ts and comparability.test.ts',
  'protocol-kit/report.ts': 'test/lib/protocols/paper-report.test.ts',
  'protocol-kit/retriever.ts': TYPES_ONLY,
  'protocols/run.ts':
    'catalog → evaluation, shared by page and CLI: test/scripts/reproduce.test.ts',
  'protocol-kit/types.ts': 'protocol shapes: test/lib/protocols/defaults.test.ts, evaluate.test.ts',
  'userdata/byte-source.ts': 'test/lib/userdata/lines.test.ts, bad-files.test.ts',
  'userdata/columns.ts': 'column lists for table-writer: test/lib/userdata/load.test.ts',
  'userdata/fields.ts': 'test/lib/userdata/mapping.test.ts',
  'userdata/inspect.ts': 'test/lib/userdata/load.test.ts and parquet.test.ts',
  'userdata/json-document.ts': 'test/lib/userdata/format.test.ts and bad-files.test.ts',
  'userdata/parquet-hyparquet.ts': 'test/lib/userdata/parquet.test.ts',
  'userdata/record.ts': TYPES_ONLY,
  'userdata/records.ts': 'test/lib/userdata/csv.test.ts, mapping.test.ts',
};

function tsFiles(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return tsFiles(rel);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [rel] : [];
  });
}

const modules = [
  ...tsFiles('src/lib').map((file) => file.slice('src/lib/'.length)),
  ...tsFiles('src/features').map((file) => file.slice('src/'.length)),
];
/** `features/…` sits under src/ and test/; anything else under src/lib/ and test/lib/. */
const testOf = (module: string) =>
  path
    .join(module.startsWith('features/') ? 'test' : 'test/lib', module)
    .replace(/\.ts$/, '.test.ts');
const mirrored = (module: string) => existsSync(path.join(repoRoot, testOf(module)));

describe('tests mirror src/lib and src/features', () => {
  it('every module has test/lib/<same path>.test.ts or a listed reason', () => {
    const missing = modules.filter((m) => !mirrored(m) && !(m in WITHOUT_MIRRORED_TEST));
    expect(missing.map((m) => (m.startsWith('features/') ? `src/${m}` : `src/lib/${m}`))).toEqual(
      [],
    );
  });

  it('the list names only modules that exist and still lack a mirrored test', () => {
    const stale = Object.keys(WITHOUT_MIRRORED_TEST).filter(
      (m) => !modules.includes(m) || mirrored(m),
    );
    expect(stale).toEqual([]);
  });

  it('every test under test/scripts/ is named after a script', () => {
    const orphans = tsFiles('test/scripts')
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => f.slice('test/scripts/'.length).replace(/\.test\.ts$/, '.ts'))
      .filter(
        (name) =>
          !existsSync(path.join(repoRoot, 'scripts', name)) &&
          !existsSync(path.join(repoRoot, 'scripts/lib', name)),
      );
    expect(orphans).toEqual([]);
  });
});
