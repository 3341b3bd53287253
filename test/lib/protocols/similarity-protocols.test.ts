import { describe, expect, it } from 'vitest';
import type { QueryRow, TurnRow } from '../../../src/lib/datasets/tables.ts';
import { scoreProtocol } from '../../../src/lib/protocol-kit/evaluate.ts';
import { locomoProtocol } from '../../../src/lib/protocol-kit/locomo.ts';
import { hostConversation, locomoPlusProtocol } from '../../../src/lib/protocol-kit/locomo-plus.ts';
import type { Retriever } from '../../../src/lib/protocol-kit/retriever.ts';

function turn(conv: string, diaId: string, text: string): TurnRow {
  return {
    dataset: 'locomo',
    conv_id: conv,
    session: 1,
    dia_id: diaId,
    turn_index: 0,
    speaker: 'A',
    date: '',
    text,
    caption: 'ignored caption',
    img_url: null,
  };
}

function query(conv: string, id: string, gold: string[], category: number | null = 1): QueryRow {
  return {
    dataset: 'locomo',
    query_id: id,
    conv_id: conv,
    style: 'question',
    category,
    text: `q ${id}`,
    answer: null,
    gold_ids: gold,
  };
}

/** doc i of any corpus scores i: the last doc ranks first. */
const byIndex: Retriever = {
  id: 'index',
  label: 'index',
  prepare: async () => undefined,
  forCorpus: (c) => () => Float64Array.from(c.docs, (_, i) => i),
};

describe('LoCoMo in Figure 4', () => {
  const turns = [turn('c1', 'D1:1', 'one'), turn('c1', 'D1:2', 'two'), turn('c2', 'D1:1', 'three')];
  const protocol = locomoProtocol(turns, [
    query('c1', 'c1:q0', ['D1:2']),
    query('c2', 'c2:q0', ['D1:1', 'D1:1'], 5),
    query('c1', 'c1:q1', []),
  ]);

  it('asks each question against its own conversation, turn text alone', () => {
    expect(protocol.corpora.get('c1')?.docs).toEqual(['one', 'two']);
    expect(protocol.corpora.get('c2')?.docs).toEqual(['three']);
    expect(protocol.queries.map((q) => [q.corpusId, q.group, q.goldIds])).toEqual([
      ['c1', 'category 1 · multi-hop', ['D1:2']],
      ['c2', 'category 5 · adversarial', ['D1:1']],
      ['c1', 'category 1 · multi-hop', []],
    ]);
  });

  it('takes evidence turns as targets and the other turns as background', () => {
    const evaluation = scoreProtocol(protocol, byIndex);
    expect(evaluation.outcomes.map((o) => o.targets.map((t) => t.score))).toEqual([[1], [0]]);
    expect(Array.from(evaluation.background.get('question') ?? [])).toEqual([0]);
    expect(evaluation.skipped.get('question')).toBe(1);
  });
});

describe('LoCoMo-Plus in Figure 4', () => {
  const convIds = ['c0', 'c1', 'c2'];

  it('hosts item i in conversation i mod n', () => {
    expect([0, 1, 2, 3, 7].map((i) => hostConversation(i, convIds))).toEqual([
      'c0',
      'c1',
      'c2',
      'c0',
      'c1',
    ]);
  });

  it('appends the cue turns after the host conversation and makes them the targets', () => {
    const protocol = locomoPlusProtocol({
      items: [
        { item_id: 'lp-0', item_index: 0, relation_type: 'causal' },
        { item_id: 'lp-1', item_index: 1, relation_type: 'goal' },
      ],
      cueTurns: [
        { ...turn('lp-0', 'cue:1', 'cue a'), dataset: 'locomo-plus' },
        { ...turn('lp-0', 'cue:2', 'cue b'), dataset: 'locomo-plus' },
        { ...turn('lp-1', 'cue:1', 'cue c'), dataset: 'locomo-plus' },
      ],
      triggers: [
        { ...query('lp-0', 'lp-0', ['cue:1', 'cue:2'], null), style: 'trigger' },
        { ...query('lp-1', 'lp-1', ['cue:1'], null), style: 'trigger' },
      ],
      locomoTurns: [turn('c0', 'D1:1', 'x'), turn('c1', 'D1:1', 'y'), turn('c1', 'D1:2', 'z')],
    });
    expect(protocol.corpora.get('lp-0')).toMatchObject({
      docs: ['x', 'cue a', 'cue b'],
      docIds: ['D1:1', 'cue:1', 'cue:2'],
      shared: { id: 'c0', size: 1 },
    });
    expect(protocol.corpora.get('lp-1')?.docs).toEqual(['y', 'z', 'cue c']);
    expect(protocol.queries.map((q) => [q.series, q.group])).toEqual([
      ['trigger', 'causal'],
      ['trigger', 'goal'],
    ]);
    const evaluation = scoreProtocol(protocol, byIndex);
    expect(evaluation.outcomes[0].targets.map((t) => t.index)).toEqual([1, 2]);
    expect(evaluation.outcomes[1].targetRank).toBe(1);
  });
});
