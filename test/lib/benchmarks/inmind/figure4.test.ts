import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FIGURE4_PANELS,
  figure4Differs,
  figure4PublishedQuery,
  figure4Rows,
} from '../../../../src/lib/benchmarks/inmind/figure4.ts';
import { Catalog } from '../../../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../../../src/lib/db/node-engine.ts';
import { loadReproduced, loadResults } from '../../../../src/lib/loaders/core-loader.ts';
import { SITE, siteFetch } from '../../data/site-fetch.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const PAPER = join(process.env.MEMLENS_PAPERS_DIR ?? join(ROOT, '../shared/papers'), 'inmind.txt');
const MINILM = 'sentence-transformers/all-MiniLM-L6-v2';

let catalog: Catalog;

beforeAll(async () => {
  catalog = new Catalog(await openNodeEngine());
  const file = { name: 'data/reproduced/memlens.csv', url: `${SITE}data/reproduced/memlens.csv` };
  const results = { name: 'data/results/inmind.csv', url: `${SITE}data/results/inmind.csv` };
  await loadResults(catalog, [results], siteFetch());
  await loadReproduced(catalog, [file], siteFetch());
});

afterAll(async () => {
  await catalog.engine.close();
});

describe("InMind's Figure 4 against the paper", () => {
  it.runIf(existsSync(PAPER))('quotes the paper as printed, at the line it gives', () => {
    const lines = readFileSync(PAPER, 'utf8').split('\n');
    for (const panel of FIGURE4_PANELS) {
      expect(lines[panel.stated.line - 1], panel.id).toContain(panel.stated.text);
    }
  });

  it('sets our published AUC and KS beside each drawable panel, for MiniLM and for BM25', async () => {
    for (const [retriever, model] of [
      ['minilm', MINILM],
      ['bm25', 'BM25'],
    ]) {
      const rows = figure4Rows(await catalog.run(figure4PublishedQuery(retriever, model)));
      expect(rows.map((r) => r.panel.id)).toEqual(['inmind', 'locomo', 'locomo-plus', 'lme-s']);
      for (const row of rows.slice(0, 3)) {
        expect(row.auc, `${retriever} ${row.panel.id}`).toBeGreaterThan(0);
        expect(row.auc).toBeLessThan(1);
        expect(row.ks).toBeGreaterThanOrEqual(0);
        expect(row.command).toContain('npm run reproduce -- --benchmark');
      }
      // LME-s: no panel here, and it says why.
      expect(rows[3]).toMatchObject({ auc: null, ks: null, command: null });
      expect(rows[3].panel.absent).toMatch(/not drawn here/);
    }
    const minilm = figure4Rows(await catalog.run(figure4PublishedQuery('minilm', MINILM)));
    expect(minilm[0].command).toBe(
      'npm run reproduce -- --benchmark inmind-figure4 --model minilm',
    );
    expect(minilm[2].command).toContain('--mode retrieval');
  });

  it('says in one sentence what differs: the encoder, the prefix and the task filter', () => {
    expect(figure4Differs('minilm', 'fp32')).toMatch(
      /BGE-small-en-v1\.5 cosines with its retrieval prefix; ours are all-MiniLM-L6-v2 cosines without a prefix.*MiniLM is the filter's own encoder\.$/,
    );
    expect(figure4Differs('bm25', null)).toMatch(
      /ours are BM25 scores.*BM25 is one of the two filters/,
    );
    expect(figure4Differs('bge-small', 'q8')).toMatch(
      /^Same encoder and query prefix .*\(q8 weights, not fp32\)/,
    );
    for (const id of ['minilm', 'bm25', 'bge-small']) {
      // One sentence: no full stop before a capital ("App. 9" is an abbreviation).
      expect(figure4Differs(id, 'fp32'), id).not.toMatch(/\.\s+[A-Z]/);
    }
  });
});
