import { paperTargetOf } from '../../../src/lib/benchmarks/registry.ts';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSiteCatalog, parseArgs, reproduce, type CliRun } from '../../../scripts/reproduce.ts';
import type { Catalog } from '../../../src/lib/db/catalog.ts';
import { locomoConvScope } from '../../../src/lib/benchmarks/locomo-conv/protocol.ts';
import { scoreProtocol } from '../../../src/lib/protocol-kit/evaluate.ts';
import { COMPARABILITY, comparePaper, paperRows } from '../../../src/lib/protocol-kit/paper.ts';
import type { Retriever } from '../../../src/lib/protocol-kit/retriever.ts';
import { corpusMap, type Protocol } from '../../../src/lib/protocol-kit/types.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const site = path.join(root, 'public');
const hasData = existsSync(path.join(site, 'data/inmind/inmind_en.jsonl'));

function convRow(variant: string, value: string) {
  return {
    paper: 'locomo-conv',
    table: 'Table 4',
    row: 'Naive RAG',
    column: `Retrieval Recall@10 / ${variant}`,
    value: Number(value),
    value_text: value,
    unit: 'score',
    system: 'Naive RAG',
    variant,
    metric: 'recall@10',
    source_line: 97,
  };
}

/** One dialog query whose gold ranks first: recall@10 = 1. */
function convProtocol(scope: Map<string, string>): Protocol {
  return {
    benchmark: 'locomo-conv',
    notes: [],
    corpora: corpusMap([{ id: 'c', docs: ['a', 'b'], docIds: ['D1:1', 'D1:2'] }]),
    queries: [
      { id: 'q', series: 'dialog', group: 'g', text: 'a', corpusId: 'c', goldIds: ['D1:1'] },
    ],
    defaultK: 10,
    scope,
  };
}

const minilm: Retriever = {
  id: 'minilm',
  label: 'all-MiniLM-L6-v2',
  prepare: async () => undefined,
  forCorpus: () => () => Float64Array.from([1, 0]),
};

describe('LoCoMo-Conv comparability', () => {
  const rows = paperRows([convRow('dialog', '.533')]);

  it('is exact, with a difference, for MiniLM fp32 on the whole pool at k = 10', () => {
    const [c] = comparePaper(
      scoreProtocol(convProtocol(new Map()), minilm),
      rows,
      10,
      paperTargetOf('locomo-conv'),
    );
    expect(c).toMatchObject({ comparability: 'exact', differs: '', ours: 1 });
    expect(c.difference).toBeCloseTo(1 - 0.533, 12);
  });

  it('is other scope, without a difference, on the excerpt, another k, or q8 weights', () => {
    const scope = locomoConvScope(['conv-26'], 300);
    expect(scope.get('dialog')).toBe(
      "1 conversation (conv-26) of the paper's 10: only the locomo10_dialog excerpt is served",
    );
    expect(scope.get('composed')).toBe(
      "300 of the paper's 1,069 composed clusters (locomo10_multimem.json, not locomo10_multimem_full.json)",
    );
    const excerpt = comparePaper(
      scoreProtocol(convProtocol(scope), minilm),
      rows,
      10,
      paperTargetOf('locomo-conv'),
    );
    const otherK = comparePaper(
      scoreProtocol(convProtocol(new Map()), minilm),
      rows,
      5,
      paperTargetOf('locomo-conv'),
    );
    const q8 = comparePaper(
      scoreProtocol(convProtocol(new Map()), minilm),
      rows,
      10,
      paperTargetOf('locomo-conv'),
      {
        dtype: 'q8',
      },
    );
    for (const [c] of [excerpt, otherK, q8]) {
      expect(c.comparability).toBe('other scope');
      expect(c.difference).toBeNull();
      expect(c.differs).not.toBe('');
    }
    expect(q8[0].differs).toBe('q8 weights, not fp32');
    expect(otherK[0].differs).toBe("paper's k = 10, ours 5");
    expect(
      locomoConvScope(
        Array.from({ length: 10 }, (_, i) => `c${i}`),
        1069,
      ).size,
    ).toBe(0);
  });
});

describe.skipIf(!hasData)(
  'every paper row beside ours has a comparability (site data, BM25)',
  () => {
    let catalog: Catalog;
    let close: () => Promise<void>;
    const runs: CliRun[] = [];

    beforeAll(async () => {
      ({ catalog, close } = await openSiteCatalog(site));
      for (const b of ['inmind', 'locomo-conv']) {
        runs.push(await reproduce(parseArgs(['--benchmark', b, '--retriever', 'bm25']), catalog));
      }
    }, 180_000);

    afterAll(async () => close?.());

    it('no proxy or other-scope row has a difference, and each says what differs', () => {
      const all = runs.flatMap((r) => r.figures.paper);
      expect(all.length).toBe(6 + 4);
      for (const c of all) {
        expect(COMPARABILITY).toContain(c.comparability);
        if (c.comparability !== 'exact') {
          expect(c.difference, `${c.paper.row} ${c.paper.column}`).toBeNull();
          expect(c.differs).not.toBe('');
        }
      }
      const [inmind, conv] = runs;
      expect(inmind.figures.paper.map((c) => c.comparability)).toEqual(Array(6).fill('proxy'));
      expect(conv.figures.paper.map((c) => c.comparability)).toEqual(Array(4).fill('other scope'));
      const dialog = conv.figures.paper.find((c) => c.series === 'dialog');
      expect(dialog?.differs).toBe(
        "paper's retriever all-MiniLM-L6-v2, ours BM25; 1 conversation (conv-26) of the paper's 10: only the locomo10_dialog excerpt is served",
      );
      console.log(
        inmind.figures.paper.map((c) => `${c.paper.column}: ${c.comparability}`).join('; '),
      );
    });

    it('prints the comparability in the CLI lines', () => {
      const [inmind] = runs;
      const target = inmind.lines.find(
        (l) => l.includes('BM25 (Robertson') && l.includes('Target Recall'),
      );
      expect(target).toBe(
        '  BM25 (Robertson and Zaragoza, 2009) · Target Recall: paper 3.2 (paper: ±4–5 pts binomial CI (§4.5)), ours 0.8 [0.1, 4.4] ' +
          "[proxy: the paper's Target Recall is GPT-5-mini judging whether the top-5 context states the decisive fact; ours is rank-based recall@5]",
      );
      expect(inmind.lines.some((l) => l.includes('difference'))).toBe(false);
    });
  },
);
