import { describe, expect, it } from 'vitest';
import { bm25Retriever } from '../../../src/lib/protocol-kit/bm25-retriever.ts';
import { evaluateProtocol } from '../../../src/lib/protocol-kit/evaluate.ts';
import {
  TARGET_ID,
  injectedChunk,
  inmindProtocol,
  taskCorpus,
  type InMindTask,
  type InMindTurn,
} from '../../../src/lib/protocol-kit/inmind.ts';

const task: InMindTask = {
  task_id: 7,
  domain: 'health',
  user_message: 'I am allergic to tree nuts.',
  assistant_message: 'Noted.',
  naive_query: 'What am I allergic to?',
  query: 'Any macaron recipe?',
};

const turn = (id: string, content: string): InMindTurn => ({
  id,
  content,
  raw_content: `${content}\n---TIMESTAMP: 2023/05/20 (Sat) 02:21`,
});

const background = [turn('s-a-turn-0', 'I like hiking'), turn('s-a-turn-1', 'Hiking is fun')];

describe('InMind Naive RAG corpus (paper App. 15.3)', () => {
  it('joins user and assistant message with one newline into the injected chunk', () => {
    expect(injectedChunk(task)).toBe('I am allergic to tree nuts.\nNoted.');
  });

  it('appends the target after every background turn, as the 487th chunk', () => {
    const corpus = taskCorpus(task, background);
    expect(corpus.id).toBe('task-7');
    expect(corpus.docs).toEqual([
      'I like hiking\n---TIMESTAMP: 2023/05/20 (Sat) 02:21',
      'Hiking is fun\n---TIMESTAMP: 2023/05/20 (Sat) 02:21',
      'I am allergic to tree nuts.\nNoted.',
    ]);
    expect(corpus.docIds).toEqual(['s-a-turn-0', 's-a-turn-1', TARGET_ID]);
    expect(corpus.shared).toEqual({ id: 'lme-background', size: 2 });
  });

  it('keeps or strips the timestamp and uses the user message alone on request', () => {
    const corpus = taskCorpus(task, background, { target: 'user', background: 'content' });
    expect(corpus.docs).toEqual(['I like hiking', 'Hiking is fun', 'I am allergic to tree nuts.']);
  });

  it('asks the naive and the indirect query of a task against the same corpus', () => {
    const protocol = inmindProtocol([task], background);
    expect(protocol.defaultK).toBe(5);
    expect(protocol.queries).toEqual([
      {
        id: '7:naive',
        series: 'naive',
        group: 'health',
        text: 'What am I allergic to?',
        corpusId: 'task-7',
        goldIds: [TARGET_ID],
      },
      {
        id: '7:indirect',
        series: 'indirect',
        group: 'health',
        text: 'Any macaron recipe?',
        corpusId: 'task-7',
        goldIds: [TARGET_ID],
      },
    ]);
  });

  it('groups by the domain as InMind prints it, one spelling on every page', () => {
    const wellness = { ...task, domain: 'health_and_wellness' };
    const groups = inmindProtocol([wellness], background).queries.map((q) => q.group);
    expect(groups).toEqual(['health and wellness', 'health and wellness']);
  });

  it('ranks a target that ties with a background turn after it (lower index first)', async () => {
    // b0 and the target are the same tokens ("nuts nuts ok"), so they get the same BM25 score.
    const tie: InMindTask = { ...task, user_message: 'nuts nuts', assistant_message: 'ok' };
    const plain = (id: string, text: string) => ({ id, content: text, raw_content: text });
    const bg = [
      plain('b0', 'nuts nuts ok'),
      plain('b1', 'other words'),
      plain('b2', 'more words'),
      plain('b3', 'fine day'),
    ];
    const protocol = inmindProtocol([{ ...tie, naive_query: 'nuts?' }], bg);
    const evaluation = await evaluateProtocol(protocol, bm25Retriever());
    const [naive, indirect] = evaluation.outcomes;
    expect(naive.top.slice(0, 2).map((s) => s.index)).toEqual([0, 4]);
    expect(naive.top[0].score).toBe(naive.top[1].score);
    expect(naive.top[0].score).toBeGreaterThan(0);
    expect(naive.targetRank).toBe(2);
    expect(naive.goldRanks).toEqual([2]);
    // "any macaron recipe" matches nothing: five zeros, the target (index 4) last.
    expect(indirect.targetRank).toBe(5);
  });
});
