import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BENCHMARK_DEFS,
  benchmarkById,
  consoleExamples,
  manifestProblems,
  paperRowsWhere,
  paperTargetOf,
  protocolEntries,
  protocolRun,
  reproduceProtocols,
  viewerBenchmarkNames,
} from '../../../src/lib/benchmarks/registry.ts';
import { PAPERS } from '../../../src/lib/benchmarks/registry.ts';
import { FIXTURE_BENCHMARK } from './fixture-benchmark.ts';
import { BENCHMARKS } from '../../../src/lib/benchmarks/registry.ts';

interface SourcesFile {
  files: { id: string; dataset: string }[];
}
const sources: SourcesFile = JSON.parse(
  readFileSync(new URL('../../../data/sources.json', import.meta.url), 'utf8'),
);

describe('reproduceProtocols: what a paper page links to on Reproduce', () => {
  it("lists each paper benchmark's runnable protocols; MemUse and UtilMem have none", () => {
    const ids = (b: string) => reproduceProtocols(b).map((p) => p.id);
    expect(ids('inmind')).toEqual(['inmind', 'inmind-figure4']);
    expect(ids('locomo-conv')).toEqual(['locomo-conv']);
    expect(ids('memuse')).toEqual([]);
    expect(ids('utilmem')).toEqual([]);
    expect(ids('nope')).toEqual([]);
    for (const d of BENCHMARK_DEFS)
      for (const p of reproduceProtocols(d.id)) expect(BENCHMARKS).toContain(p.id);
  });

  it("matches the InMind page's static links (that page is in the initial bundle)", () => {
    const page = readFileSync(
      new URL('../../../src/pages/InMindPage.svelte', import.meta.url),
      'utf8',
    );
    const flat = page.replace(/\s+/g, ' ').replaceAll('</a >', '</a>');
    for (const p of reproduceProtocols('inmind'))
      expect(flat).toContain(`<a href="#/reproduce?bench=${p.id}">${p.label}</a>`);
  });
});

describe('the benchmark registry', () => {
  it('has one entry per benchmark, ids unique', () => {
    const ids = BENCHMARK_DEFS.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(['inmind', 'locomo', 'locomo-plus', 'locomo-conv', 'memuse', 'utilmem']);
  });

  it('claims every file of data/sources.json exactly once, and names no other', () => {
    const claimed = BENCHMARK_DEFS.flatMap((d) => d.dataset?.sourceIds ?? []);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect([...claimed].sort()).toEqual(sources.files.map((f) => f.id).sort());
    expect(manifestProblems(sources.files)).toEqual([]);
    expect(
      manifestProblems([
        { id: 'locomo', dataset: 'memuse' },
        { id: 'new-file', dataset: 'locomo' },
      ]),
    ).toEqual([
      'data/sources.json: locomo: filed under memuse, read by locomo',
      'data/sources.json: new-file: no benchmark in the registry reads it',
    ]);
  });

  it('ties every released-results paper to one benchmark', () => {
    const papers = BENCHMARK_DEFS.flatMap((d) => (d.paper ? [d.paper] : []));
    expect([...papers].sort()).toEqual([...PAPERS].sort());
  });

  it('lists protocols in registry order, with their benchmark', () => {
    expect(protocolEntries().map((p) => p.id)).toEqual([
      'inmind',
      'inmind-figure4',
      'locomo',
      'locomo-plus',
      'locomo-conv',
    ]);
    // Every protocol the registry lists has a builder, and every builder is listed.
    expect(protocolEntries().map((p) => p.id)).toEqual([...BENCHMARKS]);
    const withFixture = protocolEntries([...BENCHMARK_DEFS, FIXTURE_BENCHMARK]);
    expect(withFixture.at(-1)).toEqual({
      id: 'fixture-mem',
      label: 'FixtureMem (test only)',
      benchmark: 'fixture-mem',
    });
    expect(benchmarkById('fixture-mem', [FIXTURE_BENCHMARK])?.label).toBe('FixtureMem');
  });

  it("names the viewer's benchmarks in registry order", () => {
    expect(viewerBenchmarkNames()).toBe('LoCoMo, LoCoMo-Plus, LoCoMo-Conv and MemUse');
    expect(viewerBenchmarkNames([FIXTURE_BENCHMARK])).toBe('FixtureMem');
  });

  it("joins each protocol's paper rows into one condition, and links each row to one protocol", () => {
    const where = paperRowsWhere();
    expect(where.split('\n   OR ')).toHaveLength(2);
    expect(where).toContain("(paper = 'inmind'");
    expect(paperRowsWhere([FIXTURE_BENCHMARK])).toBe('false');
    const row = {
      ...{ paper: 'inmind', table: 'Table 1', row: 'BM25', column: 'Naive', value: 53.6 },
      ...{ value_text: '53.6', unit: '%', system: 'BM25', variant: 'BM25', metric: 'naive' },
      source_line: 120,
    };
    expect(paperTargetOf('inmind')(row)).toMatchObject({ series: 'naive', k: 5 });
    expect(paperTargetOf('inmind-figure4')(row)).toBeNull();
  });

  it("lists each benchmark's console examples in registry order, then the cross-benchmark ones", () => {
    const ids = consoleExamples().map((e) => e.id);
    expect(ids).toEqual([
      'inmind-table1',
      'inmind-domains',
      'locomo-categories',
      'locomo-conv-styles',
      'turns-per-conversation',
      'released-numbers',
      'paper-vs-ours',
    ]);
  });
});

describe("each protocol's starting k", () => {
  it("is the k its built protocol reads recall at, so Reproduce's slider shows it before a run", async () => {
    const { INMIND_K } = await import('../../../src/lib/protocol-kit/inmind.ts');
    const { SIMILARITY_K } = await import('../../../src/lib/protocol-kit/locomo.ts');
    const { LOCOMO_CONV_K } = await import('../../../src/lib/benchmarks/locomo-conv/protocol.ts');
    const { USER_K } = await import('../../../src/lib/protocol-kit/user-benchmark.ts');
    const expected: Record<string, number> = {
      inmind: INMIND_K,
      'inmind-figure4': INMIND_K,
      locomo: SIMILARITY_K,
      'locomo-plus': SIMILARITY_K,
      'locomo-conv': LOCOMO_CONV_K,
      user_mine: USER_K,
    };
    for (const [id, k] of Object.entries(expected)) {
      expect(protocolRun(id)?.defaults.k, id).toBe(k);
    }
  });
});
