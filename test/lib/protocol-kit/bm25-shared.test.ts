import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../../../src/lib/analysis/bm25.ts';
import { asciiWordTokens } from '../../../src/lib/analysis/tokenize.ts';
import { inmindTaskRows, lmeBackgroundRows } from '../../../src/lib/datasets/inmind.ts';
import { injectedChunk } from '../../../src/lib/protocol-kit/inmind.ts';
import { SharedBaseBm25 } from '../../../src/lib/protocol-kit/bm25-shared.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DATA = process.env.MEMLENS_DATA_DIR ?? path.join(ROOT, '../shared/data');

/** Deterministic small corpora over a tiny vocabulary, so many terms are common (negative idf). */
function randomDocs(seed: number, count: number, vocab: number): string[][] {
  let s = seed;
  const next = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 4294967296;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: Math.floor(next() * 8) }, () => `w${Math.floor(next() * vocab)}`),
  );
}

describe('SharedBaseBm25 equals Bm25Index bit for bit', () => {
  it('on random corpora with negative idfs, empty docs and repeated query terms', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const docs = randomDocs(seed, 2 + (seed % 9), 3 + (seed % 7));
      const split = seed % docs.length;
      const base = new SharedBaseBm25(docs.slice(0, split));
      const scorer = base.extend(docs.slice(split));
      const index = new Bm25Index(docs);
      for (const query of randomDocs(seed + 1000, 5, 12)) {
        expect(scorer(query)).toEqual(index.scores(query));
      }
    }
  });

  const tasksFile = path.join(DATA, 'inmind/inmind_en.jsonl');
  const bgFile = path.join(DATA, 'inmind/lme_s_background.jsonl');
  it.skipIf(!existsSync(tasksFile))('on every InMind task corpus and query', () => {
    const tasks = inmindTaskRows(readFileSync(tasksFile, 'utf8'));
    const background = lmeBackgroundRows(readFileSync(bgFile, 'utf8')).map((t) =>
      asciiWordTokens(t.raw_content),
    );
    const base = new SharedBaseBm25(background);
    for (const task of tasks) {
      const target = asciiWordTokens(injectedChunk(task));
      const scorer = base.extend([target]);
      const index = new Bm25Index([...background, target]);
      for (const q of [task.naive_query, task.query]) {
        const tokens = asciiWordTokens(q);
        expect(scorer(tokens)).toEqual(index.scores(tokens));
      }
    }
  });
});
