import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getModelSpec } from '../../../src/lib/embed/model-registry.ts';
import { PAPER_DEFAULTS, choiceLabel } from '../../../src/lib/protocols/defaults.ts';
import {
  INMIND_FIGURE4_DEFAULTS,
  inmindFigure4Protocol,
  type InMindTask,
} from '../../../src/lib/protocol-kit/inmind.ts';
import {
  LOCOMO_CATEGORY_NAMES,
  locomoCategoryLabel,
} from '../../../src/lib/datasets/locomo-categories.ts';
import { BENCHMARKS } from '../../../src/lib/benchmarks/registry.ts';

const papers = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../shared/papers',
);
const inmindText = path.join(papers, 'inmind.txt');

const task: InMindTask = {
  task_id: 7,
  domain: 'health',
  user_message: 'I take warfarin.',
  assistant_message: 'Noted.',
  naive_query: 'What do I take?',
  query: 'Can I have grapefruit juice?',
};

describe('InMind Figure 4 defaults are Appendix 9’s choices', () => {
  const fig4 = PAPER_DEFAULTS['inmind-figure4'];

  it('BGE-small-en-v1.5 with the query prefix its authors recommend', () => {
    expect(fig4).toMatchObject({ retriever: 'bge-small', queryPrefix: true, target: 'user' });
    const bge = getModelSpec(fig4.retriever);
    expect(bge.label).toBe('bge-small-en-v1.5');
    expect(bge.queryPrefix).toBe('Represent this sentence for searching relevant passages: ');
  });

  it('target = user_message, query = the indirect query; the chunk stays an option', () => {
    expect(INMIND_FIGURE4_DEFAULTS.target).toBe('user');
    const p = inmindFigure4Protocol([task], [{ id: 'b0', raw_content: 'bg', content: 'bg' }]);
    expect(p.benchmark).toBe('inmind-figure4');
    expect(p.queries.map((q) => [q.series, q.text])).toEqual([
      ['indirect', 'Can I have grapefruit juice?'],
    ]);
    expect(p.corpora.get('task-7')?.docs).toEqual(['bg', 'I take warfarin.']);
    const chunk = inmindFigure4Protocol([task], [], { target: 'chunk', background: 'raw' });
    expect(chunk.corpora.get('task-7')?.docs).toEqual(['I take warfarin.\nNoted.']);
  });

  it.skipIf(!existsSync(inmindText))('quotes the paper’s own sentences', () => {
    const text = readFileSync(inmindText, 'utf8');
    for (const b of ['inmind-figure4', 'locomo'] as const) {
      for (const part of PAPER_DEFAULTS[b].sentence.split(' … ')) expect(text).toContain(part);
    }
    const table8 = PAPER_DEFAULTS.inmind.sentence.split('. ').map((s) => s.replace(/\.$/, ''));
    for (const part of table8) {
      const [, value] = part.split(': ');
      expect(text).toContain(value);
    }
  });
});

describe('every benchmark has a paper default, and other choices are MemLens’s own', () => {
  it('labels choices', () => {
    for (const b of BENCHMARKS) expect(PAPER_DEFAULTS[b].benchmark).toBe(b);
    expect(choiceLabel('inmind', 'bm25')).toBe('paper');
    expect(choiceLabel('inmind', 'minilm')).toBe('paper');
    expect(choiceLabel('inmind', 'tiny-bert')).toBe("MemLens's own");
    expect(choiceLabel('locomo', 'bm25')).toBe("MemLens's own");
    expect(choiceLabel('locomo-conv', 'minilm')).toBe('paper');
  });

  it('says a declared table has no paper, for BM25 as for a model', () => {
    expect(choiceLabel('user_mine', 'bm25')).toBe('no paper');
    expect(choiceLabel('user_mine', 'minilm')).toBe('no paper');
  });
});

describe('LoCoMo categories by the release’s numbering', () => {
  it('names 1..5 as LoCoMo’s scorer treats them', () => {
    expect(LOCOMO_CATEGORY_NAMES).toEqual({
      1: 'multi-hop',
      2: 'temporal',
      3: 'open-domain',
      4: 'single-hop',
      5: 'adversarial',
    });
    expect(locomoCategoryLabel(4)).toBe('category 4 · single-hop');
    expect(locomoCategoryLabel(9)).toBe('category 9');
    expect(locomoCategoryLabel(null)).toBe('category ?');
  });
});
