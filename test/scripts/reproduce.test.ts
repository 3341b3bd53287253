import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, type TopLevelSpec } from 'vega-lite';
import { parseModelRef } from '../../src/lib/embed/model-ref.ts';
import {
  UsageError,
  main,
  needsBenchmarkTables,
  openBenchmarkFileCatalog,
  openSiteCatalog,
  parseArgs,
  parseCommandLine,
  reproduce,
  summaryCsv,
  summaryJson,
  usage,
  writeDeclaration,
  writeOutputs,
  type CliRun,
} from '../../scripts/reproduce.ts';

import { BENCHMARK_DEFS } from '../../src/lib/benchmarks/registry.ts';
import { FIXTURE_BENCHMARK } from '../lib/benchmarks/fixture-benchmark.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const site = path.join(root, 'public');
const hasData = existsSync(path.join(site, 'data/inmind/inmind_en.jsonl'));

describe('reproduce CLI and the benchmark registry', () => {
  it('lists and accepts what the registry lists; a fixture entry appears with nothing else touched', () => {
    const withFixture = [...BENCHMARK_DEFS, FIXTURE_BENCHMARK];
    const help = usage(site, withFixture);
    expect(help).toContain(
      'one of inmind, inmind-figure4, locomo, locomo-plus, locomo-conv, fixture-mem',
    );
    expect(help).toMatch(/^ {2}fixture-mem +FixtureMem \(test only\); no protocol builder yet$/m);
    expect(() => parseArgs(['--benchmark', 'fixture-mem'])).toThrow(
      'unknown benchmark "fixture-mem"',
    );
    expect(() => parseArgs(['--benchmark', 'fixture-mem'], withFixture)).toThrow(
      'fixture-mem: in the benchmark registry, but no protocol builder runs it yet',
    );
  });

  it("skips the conversation benchmarks' tables only for protocols of a core benchmark (InMind)", () => {
    expect(needsBenchmarkTables('inmind')).toBe(false);
    expect(needsBenchmarkTables('inmind-figure4')).toBe(false);
    for (const id of ['locomo', 'locomo-plus', 'locomo-conv', 'nonesuch']) {
      expect(needsBenchmarkTables(id)).toBe(true);
    }
  });
});

describe('reproduce CLI arguments', () => {
  it('defaults to InMind with BM25 and the protocol k', () => {
    const opts = parseArgs([]);
    expect(opts).toMatchObject({ retriever: 'bm25', k: 0, queryPrefix: false, format: 'table' });
    expect(opts.spec).toEqual({
      benchmark: 'inmind',
      inmind: { target: 'chunk', background: 'raw' },
      locomoPlus: 'release',
    });
  });

  it('takes each paper’s defaults: Figure 4 is BGE-small, prefix on, target user_message', () => {
    expect(parseArgs(['--benchmark', 'inmind-figure4'])).toMatchObject({
      retriever: 'bge-small',
      queryPrefix: true,
      spec: { inmind: { target: 'user' } },
    });
    expect(parseArgs(['--benchmark', 'locomo-conv']).retriever).toBe('minilm');
    expect(
      parseArgs(['--benchmark', 'inmind-figure4', '--target', 'chunk']).spec.inmind.target,
    ).toBe('chunk');
    expect(parseArgs(['--benchmark', 'locomo', '--no-query-prefix']).queryPrefix).toBe(false);
    expect(
      parseArgs(['--benchmark', 'locomo-plus', '--mode', 'retrieval', '--retriever', 'bm25']),
    ).toMatchObject({ retriever: 'bm25', spec: { locomoPlus: 'retrieval' } });
  });

  it('takes a model as the dense retriever', () => {
    expect(parseArgs(['--model', 'tiny-bert']).retriever).toBe('tiny-bert');
    expect(parseArgs(['--retriever', 'dense', '--model', 'bge-small']).retriever).toBe('bge-small');
    expect(parseArgs(['--retriever', 'minilm']).retriever).toBe('minilm');
  });

  it('prints usage for --help, with every option, benchmark and model', () => {
    expect(parseCommandLine(['--benchmark', 'x', '--help'])).toEqual({ help: true });
    const text = usage();
    for (const word of [
      '--benchmark',
      '--mode',
      '--retriever',
      '--model',
      '--k',
      '--target',
      '--background',
      '--query-prefix',
      '--no-query-prefix',
      '--format',
      '--out',
      '--site',
      '--model-root',
      '--time',
      '--synthetic-dims',
      '--dtype',
      '--help',
      'inmind-figure4',
      'locomo-conv',
      'bm25',
      'minilm',
      'bge-small',
      'tiny-bert',
    ]) {
      expect(text).toContain(word);
    }
    expect(text).toMatch(/tiny-bert .*: here/);
  });

  it('exits 0 on --help and 2 with the usage on an unknown option or bad value', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const log = console.log;
    const error = console.error;
    console.log = (s: string) => void out.push(s);
    console.error = (s: string) => void err.push(s);
    try {
      expect(await main(['--help'])).toBe(0);
      expect(await main(['--frobnicate'])).toBe(2);
      expect(await main(['--format', 'xml'])).toBe(2);
      expect(await main(['--k'])).toBe(2);
      expect(await main(['--benchmark', 'locomo-plus', '--retriever', 'bm25'])).toBe(2);
    } finally {
      console.log = log;
      console.error = error;
    }
    expect(out[0]).toContain('Usage: npm run reproduce');
    expect(err[0]).toMatch(/^error: unknown option "--frobnicate"\n\nUsage:/);
    expect(err[1]).toContain('--format must be one of table, json, csv');
    expect(err[2]).toContain('--k needs a value');
    expect(err[3]).toContain('release mode compares dense cosines');
  });

  it('rejects contradictions and unknown values', () => {
    expect(parseArgs(['--model', 'bge-small', '--dtype', 'q8']).dtype).toBe('q8');
    expect(parseArgs([]).dtype).toBeNull();
    expect(() => parseArgs(['--dtype', 'int3'])).toThrow(/fp32, fp16, q8, q4/);
    expect(() => parseArgs(['--bogus'])).toThrow(UsageError);
    expect(() => parseArgs(['--retriever', 'bm25', '--model', 'tiny-bert'])).toThrow(/dense/);
    expect(() => parseArgs(['--retriever', 'dense'])).toThrow(/--model/);
    expect(() => parseArgs(['--model', 'gpt'])).toThrow(/Unknown model/);
    expect(() => parseArgs(['--benchmark', 'lme'])).toThrow(/benchmark/);
    expect(() => parseArgs(['--k', '0'])).toThrow(/positive/);
    expect(() => parseArgs(['--target', 'x'])).toThrow(/chunk, user/);
  });

  it('parses the model once into the reference the run, the cache file and the rows use', () => {
    const q8 = parseArgs(['--model', 'bge-small', '--dtype', 'q8']).model;
    expect(q8).toEqual(parseModelRef('bge-small:q8@node'));
    expect(parseArgs(['--model', 'minilm:q8']).model).toEqual(parseModelRef('minilm:q8@node'));
    expect(parseArgs(['--retriever', 'bm25']).model).toBeNull();
    expect(() => parseArgs(['--model', 'tiny-bert:q8'])).toThrow(
      '--model: tiny-bert has no q8 weights (has: fp32)',
    );
    expect(() => parseArgs(['--model', 'minilm@wasm'])).toThrow(/give ID or ID:DTYPE/);
    expect(() => parseArgs(['--model', 'minilm+hub'])).toThrow(UsageError);
  });
});

describe('reproduce --compare arguments', () => {
  it('reads two or more retrievers, each ID or ID:DTYPE, and the level', () => {
    const opts = parseArgs(['--compare', 'bm25,minilm,minilm:q8', '--alpha', '0.01']);
    expect(opts.compare).toEqual([
      { id: 'bm25', dtype: null },
      { id: 'minilm', dtype: null },
      { id: 'minilm', dtype: 'q8' },
    ]);
    expect(opts.alpha).toBe(0.01);
    expect(parseArgs([]).compare).toBeNull();
    expect(parseArgs(['--compare', 'bm25,submission:run.jsonl:Ranked%2C RAG']).compare).toEqual([
      { id: 'bm25', dtype: null },
      {
        id: 'submission:run.jsonl:Ranked%2C RAG',
        dtype: null,
        submission: { kind: 'file', path: 'run.jsonl', system: 'Ranked, RAG' },
      },
    ]);
  });

  it('names the mistake', () => {
    const cases: [string[], RegExp][] = [
      [['--compare', 'bm25'], /two or more/],
      [['--compare', 'bm25,nope'], /--compare: .*nope/],
      [['--compare', 'bm25,minilm:int3'], /dtype must be one of/],
      [['--compare', 'bm25:q8,minilm'], /bm25 has no dtype/],
      [['--compare', 'minilm,minilm:fp32,minilm'], /names "minilm" twice/],
      [['--compare', 'bm25,minilm', '--retriever', 'bm25'], /drop --retriever and --model/],
      [['--compare', 'bm25,minilm', '--alpha', '1'], /--alpha must be a number between 0 and 1/],
      [['--benchmark', 'locomo-plus', '--compare', 'bm25,minilm'], /--mode retrieval/],
      [['--compare', 'bm25,sub:user_x:A'], /here give the file, submission:FILE\[:SYSTEM\]/],
      [['--compare', 'bm25,submission:'], /expected submission:FILE/],
    ];
    for (const [argv, message] of cases) {
      expect(() => parseArgs(argv)).toThrow(UsageError);
      expect(() => parseArgs(argv)).toThrow(message);
    }
  });
});

describe.skipIf(!hasData)('reproduce CLI on the site data (InMind, BM25)', () => {
  let run: CliRun;
  let out: string;

  beforeAll(async () => {
    const { catalog, close } = await openSiteCatalog(site);
    try {
      run = await reproduce(
        parseArgs(['--benchmark', 'inmind', '--retriever', 'bm25', '--k', '5', '--format', 'csv']),
        catalog,
      );
    } finally {
      await close();
    }
    out = await mkdtemp(path.join(os.tmpdir(), 'memlens-reproduce-'));
  }, 120_000);

  afterAll(async () => {
    if (out) await rm(out, { recursive: true, force: true });
  });

  it('prints recall@1/5/10 for naive and indirect queries', () => {
    const headline = run.lines
      .filter((l) => /^recall@\d+ /.test(l))
      .map((l) => l.replace(/\s+/g, ' '));
    expect(headline).toEqual([
      'recall@1 naive 38.4% [30.3, 47.2] (48/125; 95% Wilson)',
      'recall@1 indirect 0.8% [0.1, 4.4] (1/125; 95% Wilson)',
      'recall@5 naive 53.6% [44.9, 62.1] (67/125; 95% Wilson)',
      'recall@5 indirect 0.8% [0.1, 4.4] (1/125; 95% Wilson)',
      'recall@10 naive 58.4% [49.6, 66.7] (73/125; 95% Wilson)',
      'recall@10 indirect 3.2% [1.3, 7.9] (4/125; 95% Wilson)',
    ]);
  });

  it('prints every domain and the paper row beside ours', () => {
    const domains = run.lines.filter((l) => l.startsWith('  naive / '));
    expect(domains).toHaveLength(10);
    expect(run.lines).toContain(
      '  BM25 (Robertson and Zaragoza, 2009) · Naive: paper 53.6, ours 53.6 [44.9, 62.1] ' +
        "[proxy: the paper's Naive is GPT-5-mini judging the answer given the top-5 context; ours is rank-based recall@5]",
    );
  });

  it('states comparability per row in the CSV and JSON output', () => {
    const csv = summaryCsv(run).split('\n');
    expect(csv[0]).toBe(
      'kind,series,level,group,k,value,lo,hi,interval,n,paper_value,comparability,differs'.replace(
        ',k,',
        ',',
      ),
    );
    const paperLines = csv.filter((l) => l.startsWith('"paper: '));
    expect(paperLines).toHaveLength(6);
    for (const l of paperLines) expect(l).toContain(',proxy,');
    const json = JSON.parse(summaryJson(run)) as {
      paper: { comparability: string; difference: null }[];
    };
    expect(json.paper.map((p) => [p.comparability, p.difference])).toEqual(
      Array(6).fill(['proxy', null]),
    );
  });

  it('writes CSVs and Vega-Lite specs that compile', async () => {
    const files = await writeOutputs(run, out);
    expect(files.map((f) => path.basename(f)).sort()).toEqual([
      'histogram.csv',
      'paper.csv',
      'queries.csv',
      'recall-curve.vl.json',
      'recall.csv',
      'separation.csv',
      'similarity.vl.json',
      'summary.txt',
    ]);
    const recall = (await readFile(path.join(out, 'recall.csv'), 'utf8')).split('\n');
    expect(recall[0]).toBe('series,level,group,k,recall,hits,queries,method,lo,hi');
    expect(
      recall.find((l) => l.startsWith('naive,series,,5,0.536,67,125,wilson,0.4488')),
    ).toBeDefined();
    expect(
      recall.find((l) => l.startsWith('indirect,series,,10,0.032,4,125,wilson,')),
    ).toBeDefined();
    const paper = (await readFile(path.join(out, 'paper.csv'), 'utf8')).split('\n');
    expect(paper[0]).toBe(
      'paper,table,row,column,paper_value,paper_interval,series,ours,ours_lo,ours_hi,comparability,difference,differs',
    );
    for (const name of ['similarity.vl.json', 'recall-curve.vl.json']) {
      const spec = JSON.parse(await readFile(path.join(out, name), 'utf8')) as TopLevelSpec;
      expect(() => compile(spec)).not.toThrow();
    }
    const queries = await readFile(path.join(out, 'queries.csv'), 'utf8');
    expect(queries.split('\n')).toHaveLength(250 + 2);
  });
});

describe('reproduce --benchmark-file (your own benchmark)', () => {
  const file = path.join(root, 'test/fixtures/userdata/own-benchmark.jsonl');
  const ranks = JSON.parse(
    readFileSync(path.join(root, 'test/fixtures/userdata/own-benchmark.ranks.json'), 'utf8'),
  ) as { bm25: number[] };

  it('names the table the file loads into and refuses contradictions', () => {
    const opts = parseArgs(['--benchmark-file', file]);
    expect([opts.spec.benchmark, opts.retriever]).toEqual(['user_own_benchmark', 'bm25']);
    expect(() => parseArgs(['--benchmark', 'inmind', '--benchmark-file', file])).toThrow(
      'give one',
    );
    expect(() => parseArgs(['--mapping', 'decl.json'])).toThrow('give the file too');
  });

  it('loads, declares and ranks the file as the page does, with a declaration file', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'memlens-own-'));
    try {
      const mapping = path.join(dir, 'decl.json');
      const decl = {
        version: 1,
        memory: { text: 'memory', id: 'fields.id', session: 'fields.session', date: null },
        query: { text: 'query', gold: 'gold', category: null },
      };
      writeFileSync(mapping, JSON.stringify(decl));
      const opts = parseArgs(['--benchmark-file', file, '--mapping', mapping]);
      const { catalog, close } = await openBenchmarkFileCatalog(file, mapping);
      try {
        const run = await reproduce(opts, catalog);
        expect(run.evaluation.outcomes.map((o) => o.targetRank)).toEqual(ranks.bm25);
        expect(run.lines.join('\n')).toContain('best target rank per query: line 51 → 3,');
        const file = await writeDeclaration(catalog, opts, dir);
        expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(decl);
      } finally {
        await close();
      }
      writeFileSync(
        mapping,
        JSON.stringify({ ...decl, query: { ...decl.query, gold: 'fields.id' } }),
      );
      await expect(openBenchmarkFileCatalog(file, mapping)).rejects.toThrow(
        'user_own_benchmark line 51: query.gold (fields.id): expected ids, found nothing',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
