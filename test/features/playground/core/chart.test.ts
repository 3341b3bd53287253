import { describe, expect, it } from 'vitest';
import {
  memoryMarks,
  rankingSpec,
  rankingSummary,
  scoreBins,
} from '../../../../src/features/playground/core/chart.ts';
import { rankMemories } from '../../../../src/features/playground/core/rank.ts';

const ranking = rankMemories([1, 2, 3, 4, 0.5, 3.5], 4);

describe('the playground figure', () => {
  it('bins every background score once', () => {
    const bins = scoreBins(ranking.backgroundScores, [0.5, 3.5]);
    expect(bins.reduce((s, b) => s + b.count, 0)).toBe(4);
    expect(bins[0].start).toBe(0);
    expect(scoreBins([0, 0], [0]).reduce((s, b) => s + b.count, 0)).toBe(2);
  });

  it('says in words where each memory lands (the text alternative)', () => {
    const text = rankingSummary(ranking, 'BM25 score');
    expect(text).toBe(
      'BM25 score of 4 background turns: median 3.000, highest 4.000; memory 1 scores 0.500, rank 6 of 6; memory 2 scores 3.500, rank 2 of 6.',
    );
    expect(rankingSpec(ranking, 'BM25 score').description).toBe(text);
  });

  it('labels every mark for screen readers', () => {
    expect(memoryMarks(ranking).map((m) => m.aria)).toEqual([
      'Memory 1 | score 0.500 | rank 6 of 6',
      'Memory 2 | score 3.500 | rank 2 of 6',
    ]);
  });
});
