import { describe, expect, it } from 'vitest';
import type { QueryRow, TurnRow } from '../../../../src/lib/datasets/tables.ts';
import { scoreProtocol } from '../../../../src/lib/protocol-kit/evaluate.ts';
import {
  conversationCorpus,
  keepsQuery,
  locomoConvProtocol,
  turnDocument,
} from '../../../../src/lib/benchmarks/locomo-conv/protocol.ts';
import type { Retriever } from '../../../../src/lib/protocol-kit/retriever.ts';
import { recallTable } from '../../../../src/lib/protocol-kit/summary.ts';

function turn(
  session: number,
  n: number,
  speaker: string,
  text: string,
  extra: Partial<TurnRow> = {},
): TurnRow {
  return {
    dataset: 'locomo',
    conv_id: 'c1',
    session,
    dia_id: `D${session}:${n}`,
    turn_index: 0,
    speaker,
    date: `${session}:00 pm on 1 May, 2023`,
    text,
    caption: null,
    img_url: null,
    ...extra,
  };
}

function query(
  id: string,
  style: QueryRow['style'],
  category: number | null,
  gold: string[],
  text = id,
): QueryRow {
  return {
    dataset: 'locomo',
    query_id: id,
    conv_id: 'c1',
    style,
    category,
    text,
    answer: null,
    gold_ids: gold,
  };
}

describe('LoCoMo-Conv document construction (PROTOCOL.md)', () => {
  it('writes the session date, then `<speaker> said, "<text>"`, both stripped', () => {
    expect(turnDocument(turn(1, 1, ' Caroline ', '  Hi Mel!  '))).toBe(
      'DATE: 1:00 pm on 1 May, 2023\nCaroline said, "Hi Mel!"',
    );
  });

  it('appends the image caption after the closing quote', () => {
    const t = turn(2, 3, 'Mel', 'Look at this.', { caption: 'a photo of a dog' });
    expect(turnDocument(t)).toBe(
      'DATE: 2:00 pm on 1 May, 2023\nMel said, "Look at this." and shared a photo of a dog.',
    );
  });

  it('writes Unknown Date when the session has no date', () => {
    expect(turnDocument(turn(1, 1, 'A', 'x', { date: '' }))).toBe(
      'DATE: Unknown Date\nA said, "x"',
    );
  });
});

const turns = [
  turn(1, 1, 'A', 'I adopted a cat named Tom.'),
  turn(1, 2, 'B', 'Tom'),
  turn(2, 1, 'A', 'Never referenced.'),
  turn(3, 1, 'A', '   '),
  turn(3, 2, 'B', 'We moved to Paris.'),
];

describe('LoCoMo-Conv index and containment matching', () => {
  const corpus = conversationCorpus('c1', turns, [['D1:1'], ['D3:2', 'D1:2']]);

  it('indexes only sessions some evidence points into, and skips blank turns', () => {
    expect(corpus.docIds).toEqual(['D1:1', 'D1:2', 'D3:2']);
  });

  it('credits a gold turn whose text is contained, case-insensitively, in the retrieved doc', () => {
    const credits = corpus.credits;
    expect(credits).toBeDefined();
    if (!credits) return;
    expect(credits(0, 'D1:1')).toBe(true);
    // "tom" is inside doc 0 ("... named Tom."): the short turn D1:2 is credited too.
    expect(credits(0, 'D1:2')).toBe(true);
    expect(credits(2, 'D1:1')).toBe(false);
    // An unindexed turn is still known to the matcher (all sessions), an unknown id never.
    expect(credits(0, 'D2:1')).toBe(false);
    expect(credits(0, 'D9:9')).toBe(false);
  });

  it('drops category 5 for question and counterfactual only', () => {
    expect(keepsQuery(query('q', 'question', 5, []))).toBe(false);
    expect(keepsQuery(query('q', 'counterfactual', 5, []))).toBe(false);
    expect(keepsQuery(query('q', 'dialog', 5, []))).toBe(true);
    expect(keepsQuery(query('q', 'implicit', 5, []))).toBe(true);
    expect(keepsQuery(query('q', 'question', 4, []))).toBe(true);
  });
});

/** Scores docs by a fixed order, whatever the query: doc i gets scores[i]. */
function fixedRetriever(scores: number[]): Retriever {
  return {
    id: 'fixed',
    label: 'fixed',
    prepare: async () => undefined,
    forCorpus: () => () => Float64Array.from(scores),
  };
}

describe('LoCoMo-Conv recall@k', () => {
  const evidence = [query('e1', 'question', 1, ['D1:1']), query('e2', 'question', 1, ['D3:2'])];
  const protocol = locomoConvProtocol([
    {
      name: 'f',
      turns,
      evidence,
      queries: [
        query('two-gold', 'question', 1, ['D1:2', 'D3:2']),
        query('adversarial', 'question', 5, ['D1:1']),
        query('no-gold', 'dialog', 2, []),
        query('dialog', 'dialog', 5, ['D3:2']),
      ],
    },
  ]);
  // Ranking: D1:1 (doc 0) first, D3:2 (doc 2) second, D1:2 (doc 1) last.
  const evaluation = scoreProtocol(protocol, fixedRetriever([3, 1, 2]));

  it('keeps the category-5 dialog query and drops the category-5 question', () => {
    expect(protocol.queries.map((q) => q.id)).toEqual(['two-gold', 'no-gold', 'dialog']);
  });

  it('skips empty gold instead of counting it as 0', () => {
    expect(evaluation.outcomes.map((o) => o.query.id)).toEqual(['two-gold', 'dialog']);
    expect(evaluation.skipped.get('dialog')).toBe(1);
  });

  it('gives |retrieved ∩ gold| / |gold| with containment credit', () => {
    // k = 1: doc 0 contains "tom", so D1:2 is credited although D1:2 itself ranks last.
    const [two] = evaluation.outcomes;
    expect(two.goldRanks).toEqual([1, 2]);
    const at1 = recallTable(evaluation, 1).find((c) => c.series === 'question' && c.group === null);
    expect(at1?.recall).toBe(0.5);
    const at2 = recallTable(evaluation, 2).find((c) => c.series === 'question' && c.group === null);
    expect(at2?.recall).toBe(1);
    const dialog = recallTable(evaluation, 1).find(
      (c) => c.series === 'dialog' && c.group === null,
    );
    expect(dialog).toMatchObject({ recall: 0, queries: 1 });
  });
});
