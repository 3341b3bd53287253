import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, type TopLevelSpec } from 'vega-lite';
import {
  openSiteCatalog,
  parseArgs,
  reproduce,
  writeOutputs,
  type CliRun,
} from '../../scripts/reproduce.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const site = path.join(root, 'public');
const hasData = existsSync(path.join(site, 'data/inmind/inmind_en.jsonl'));

describe('reproduce CLI arguments', () => {
  it('defaults to InMind with BM25 and the protocol k', () => {
    const opts = parseArgs([]);
    expect(opts).toMatchObject({ retriever: 'bm25', k: 0, queryPrefix: true });
    expect(opts.spec).toEqual({
      benchmark: 'inmind',
      inmind: { target: 'chunk', background: 'raw' },
    });
  });

  it('takes a model as the dense retriever', () => {
    expect(parseArgs(['--model', 'tiny-bert']).retriever).toBe('tiny-bert');
    expect(parseArgs(['--retriever', 'dense', '--model', 'bge-small']).retriever).toBe('bge-small');
    expect(parseArgs(['--retriever', 'minilm']).retriever).toBe('minilm');
  });

  it('rejects contradictions and unknown values', () => {
    expect(() => parseArgs(['--retriever', 'bm25', '--model', 'tiny-bert'])).toThrow(/dense/);
    expect(() => parseArgs(['--retriever', 'dense'])).toThrow(/--model/);
    expect(() => parseArgs(['--model', 'gpt'])).toThrow(/Unknown model/);
    expect(() => parseArgs(['--benchmark', 'lme'])).toThrow(/benchmark/);
    expect(() => parseArgs(['--k', '0'])).toThrow(/positive/);
    expect(() => parseArgs(['--target', 'x'])).toThrow(/chunk, user/);
  });
});

describe.skipIf(!hasData)('reproduce CLI on the site data (InMind, BM25)', () => {
  let run: CliRun;
  let out: string;

  beforeAll(async () => {
    const { catalog, close } = await openSiteCatalog(site);
    try {
      run = await reproduce(
        parseArgs(['--benchmark', 'inmind', '--retriever', 'bm25', '--k', '5']),
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
      'recall@1 naive 38.4% (48/125)',
      'recall@1 indirect 0.8% (1/125)',
      'recall@5 naive 53.6% (67/125)',
      'recall@5 indirect 0.8% (1/125)',
      'recall@10 naive 58.4% (73/125)',
      'recall@10 indirect 3.2% (4/125)',
    ]);
  });

  it('prints every domain and the paper row beside ours', () => {
    const domains = run.lines.filter((l) => l.startsWith('  naive / ') && !l.includes('/ all'));
    expect(domains).toHaveLength(10);
    expect(run.lines).toContain(
      '  BM25 (Robertson and Zaragoza, 2009) · Naive: paper 53.6, ours 53.6, difference +0.0',
    );
    expect(run.lines).toContain(
      '  BM25 (Robertson and Zaragoza, 2009) · Target Recall: paper 3.2, ours 0.8, difference -2.4',
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
    expect(recall[0]).toBe('series,group,k,recall,hits,queries');
    expect(recall).toContain('naive,all,5,0.536,67,125');
    expect(recall).toContain('indirect,all,10,0.032,4,125');
    for (const name of ['similarity.vl.json', 'recall-curve.vl.json']) {
      const spec = JSON.parse(await readFile(path.join(out, name), 'utf8')) as TopLevelSpec;
      expect(() => compile(spec)).not.toThrow();
    }
    const queries = await readFile(path.join(out, 'queries.csv'), 'utf8');
    expect(queries.split('\n')).toHaveLength(250 + 2);
  });
});
