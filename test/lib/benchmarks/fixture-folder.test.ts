// A benchmark added as one folder (test/lib/benchmarks/fixture-folder/) and registered here, with
// no other file touched: everything that reads the registry sees it, its option and its chart.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs, usage } from '../../../scripts/reproduce.ts';
import { navEntries } from '../../../src/lib/app/nav.ts';
import { docsTableRows } from '../../../src/lib/benchmarks/docs-table.ts';
import {
  applyOptions,
  choiceText,
  isReleaseSpec,
  protocolOptions,
  resetOnBenchmark,
} from '../../../src/lib/benchmarks/options.ts';
import { paperPages } from '../../../src/lib/benchmarks/papers.ts';
import { DEFAULT_SPEC } from '../../../src/lib/protocols/build.ts';
import {
  BENCHMARK_DEFS,
  benchmarkTables,
  consoleExamples,
  protocolEntries,
  protocolRun,
  viewerBenchmarkNames,
} from '../../../src/lib/benchmarks/registry.ts';
import { schemaTables } from '../../../src/features/console/core/schema.ts';
import { Catalog } from '../../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import { collectBenchmarkRows } from '../../../src/lib/loaders/benchmark-loader.ts';
import { SITE, siteFetch } from '../data/site-fetch.ts';
import { FIXTURE_CHART, FIXTURE_FOLDER, PHRASING_OPTION } from './fixture-folder/benchmark.ts';

const defs = [...BENCHMARK_DEFS, FIXTURE_FOLDER];
const ID = 'fixture-folder';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

describe('a benchmark that is one folder plus one registry line', () => {
  it('is named by no file of src/ or scripts/', () => {
    const root = new URL('../../..', import.meta.url).pathname;
    const naming = ['src', 'scripts']
      .flatMap((d) => filesUnder(path.join(root, d)))
      .filter((f) => readFileSync(f, 'utf8').includes(ID));
    expect(naming).toEqual([]);
  });

  it('gets a nav entry before the tools', () => {
    const nav = navEntries(defs);
    expect(nav.find((e) => e.id === ID)).toEqual({ id: ID, label: 'FixtureFolder', kind: 'paper' });
    expect(nav.findIndex((e) => e.id === ID)).toBeLessThan(
      nav.findIndex((e) => e.id === 'embeddings'),
    );
  });

  it("gives the console its example, after the other benchmarks' and before the cross ones", () => {
    const ids = consoleExamples(defs).map((e) => e.id);
    expect(ids.indexOf('fixture-folder-keys')).toBe(ids.indexOf('locomo-conv-styles') + 1);
  });

  it('is in the Reproduce list, last, with its builder', async () => {
    expect(protocolEntries(defs).at(-1)).toEqual({
      id: ID,
      label: 'FixtureFolder — where the key is (test only)',
      benchmark: ID,
    });
    const run = protocolRun(ID, defs);
    const catalog = new Catalog(await openNodeEngine());
    try {
      const protocol = await run?.build(catalog, parseArgs(['--benchmark', ID], defs).spec);
      expect(protocol?.queries.map((q) => q.goldIds)).toEqual([['D1:1']]);
    } finally {
      await catalog.engine.close();
    }
  });

  it("is accepted by the CLI's --benchmark, on its paper's defaults", () => {
    expect(usage(SITE, defs)).toMatch(
      /^ {2}fixture-folder +FixtureFolder paper, Table 1; default retriever bm25$/m,
    );
    const opts = parseArgs(['--benchmark', ID], defs);
    expect(opts).toMatchObject({ retriever: 'bm25', queryPrefix: false });
    expect(opts.spec.benchmark).toBe(ID);
    expect(() => parseArgs(['--benchmark', ID])).toThrow(`unknown benchmark "${ID}"`);
  });

  it("puts its own table in the console's Benchmarks group", () => {
    const row = {
      table_name: 'fixture_folder_keys',
      table_type: 'BASE TABLE',
      column_name: 'key',
      data_type: 'VARCHAR',
    };
    const group = (tables: readonly string[]) =>
      schemaTables([row], new Map(), new Set(tables))[0].group;
    expect(group(benchmarkTables(defs))).toBe('benchmarks');
    expect(group(benchmarkTables())).toBe('other');
  });

  it("is named on the Benchmarks page's lede", () => {
    expect(viewerBenchmarkNames(defs)).toBe(
      'LoCoMo, LoCoMo-Plus, LoCoMo-Conv, MemUse and FixtureFolder',
    );
  });

  it('gets a row in the docs table', () => {
    expect(docsTableRows(defs).at(-1)).toEqual([
      'FixtureFolder',
      '`src/lib/benchmarks/fixture-folder/`',
      'FixtureFolder',
      '—',
      '`turns`, `fixture_folder_keys`',
      '`fixture-folder`',
      '`phrasing` (`--phrasing`)',
    ]);
  });

  it('loads through its own adapter', async () => {
    const opts = { siteBase: SITE, allowUpstream: false, fetchImpl: siteFetch() };
    const rows = await collectBenchmarkRows(opts, [FIXTURE_FOLDER]);
    expect(rows.files).toEqual({ [ID]: 'fixture/keys.json' });
    expect(rows.turns.map((t) => t.dataset)).toEqual([ID]);
  });

  it("gets a select in Reproduce's controls, its paper's choice marked", () => {
    expect(protocolOptions(ID, defs)).toEqual([PHRASING_OPTION]);
    expect(protocolOptions('locomo', defs)).toEqual([]);
    expect(PHRASING_OPTION.choices.map((c) => choiceText(PHRASING_OPTION, c, ID))).toEqual([
      'asks for the key (paper: Table 1)',
      "asks how to get in (MemLens's own)",
    ]);
  });

  it('is read from the URL: a known value kept, an unknown one its default, said', () => {
    const start = { ...DEFAULT_SPEC, benchmark: ID };
    expect(PHRASING_OPTION.get(applyOptions(start, { phrasing: 'oblique' }, defs))).toBe('oblique');
    const bad: string[] = [];
    const spec = applyOptions(start, { phrasing: '<b>' }, defs, (o, v) =>
      bad.push(`${o.key}=${v}`),
    );
    expect([PHRASING_OPTION.get(spec), bad]).toEqual(['direct', ['phrasing=<b>']]);
    expect(isReleaseSpec(spec, defs)).toBe(false);
    expect(resetOnBenchmark(defs)).toContain('phrasing');
    expect(resetOnBenchmark()).not.toContain('phrasing');
  });

  it("is a CLI flag, in the usage, that reaches the protocol's builder", async () => {
    expect(usage(SITE, defs)).toMatch(
      /^ {2}--phrasing P +FixtureFolder: direct \| oblique \(how the query asks for the key\)$/m,
    );
    const opts = parseArgs(['--benchmark', ID, '--phrasing', 'oblique'], defs);
    expect(opts.spec.options).toEqual({ phrasing: 'oblique' });
    const catalog = new Catalog(await openNodeEngine());
    try {
      const protocol = await protocolRun(ID, defs)?.build(catalog, opts.spec);
      expect(protocol?.queries.map((q) => q.series)).toEqual(['oblique']);
    } finally {
      await catalog.engine.close();
    }
    expect(() => parseArgs(['--benchmark', ID, '--phrasing', 'x'], defs)).toThrow(
      '--phrasing must be one of direct, oblique',
    );
    expect(() => parseArgs(['--phrasing', 'oblique'])).toThrow('unknown option "--phrasing"');
  });

  it("puts its paper chart on its paper's page", () => {
    expect(paperPages(defs)[ID]?.charts).toEqual([FIXTURE_CHART]);
    expect(paperPages()[ID]).toBeUndefined();
  });
});
