// The playground's figure: how the background turns score, and where each memory falls.
import type { TopLevelSpec } from 'vega-lite';
import { CHART_CONFIG, FULL_WIDTH, VL_SCHEMA } from '../../../lib/charts/chart-kit.ts';
import { histogram } from '../../../lib/analysis/histogram.ts';
import type { Ranking } from './rank.ts';

/** Okabe–Ito, one per memory (dash patterns tell them apart without colour too). */
const MEMORY_COLORS = ['#D55E00', '#0072B2', '#009E73', '#CC79A7', '#E69F00', '#56B4E9'];
const DASHES = [
  [1, 0],
  [6, 3],
  [2, 2],
  [8, 2, 2, 2],
  [4, 4],
  [1, 3],
];
const BINS = 24;

export interface ScoreBin {
  start: number;
  end: number;
  count: number;
  aria: string;
}

/** A type alias, so a row fits the charts' `Record<string, …>` data tables. */
export type MemoryMark = {
  memory: string;
  score: number;
  rank: number;
  aria: string;
};

export function scoreBins(scores: readonly number[], memoryScores: readonly number[]): ScoreBin[] {
  const all = [...scores, ...memoryScores].filter(Number.isFinite);
  let min = Math.min(...all, 0);
  let max = Math.max(...all, 0);
  if (!(min < max)) max = min + 1;
  if (max - min < 1e-9) min -= 1e-9;
  const h = histogram(scores, { min, max, bins: BINS });
  return h.counts.map((count, i) => ({
    start: h.edges[i],
    end: h.edges[i + 1],
    count,
    aria: `background turns | ${h.edges[i].toFixed(3)} to ${h.edges[i + 1].toFixed(3)} | ${count}`,
  }));
}

export function memoryMarks(ranking: Ranking): MemoryMark[] {
  return ranking.memories.map((m) => ({
    memory: `Memory ${m.memory + 1}`,
    score: m.score,
    rank: m.rank,
    aria: `Memory ${m.memory + 1} | score ${m.score.toFixed(3)} | rank ${m.rank} of ${ranking.corpusSize}`,
  }));
}

/** The text alternative: the distribution in words, then each memory's place in it. */
export function rankingSummary(ranking: Ranking, scoreName: string): string {
  const sorted = [...ranking.backgroundScores].sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
  const top = sorted.length ? sorted[sorted.length - 1] : 0;
  const parts = ranking.memories.map(
    (m) =>
      `memory ${m.memory + 1} scores ${m.score.toFixed(3)}, rank ${m.rank} of ${ranking.corpusSize}`,
  );
  return `${scoreName} of ${ranking.backgroundSize} background turns: median ${median.toFixed(3)}, highest ${top.toFixed(3)}; ${parts.join('; ') || 'no memories'}.`;
}

export function rankingSpec(ranking: Ranking, scoreName: string): TopLevelSpec {
  const marks = memoryMarks(ranking);
  const domain = marks.map((m) => m.memory);
  return {
    $schema: VL_SCHEMA,
    description: rankingSummary(ranking, scoreName),
    ...FULL_WIDTH,
    height: 160,
    layer: [
      {
        data: {
          values: scoreBins(
            ranking.backgroundScores,
            marks.map((m) => m.score),
          ),
        },
        mark: { type: 'bar', color: '#999999', binSpacing: 0 },
        encoding: {
          x: { field: 'start', type: 'quantitative', title: scoreName },
          x2: { field: 'end' },
          y: { field: 'count', type: 'quantitative', title: 'Background turns' },
          y2: { datum: 0 },
          description: { field: 'aria', type: 'nominal' },
          tooltip: [
            { field: 'start', type: 'quantitative', format: '.3f', title: 'from' },
            { field: 'end', type: 'quantitative', format: '.3f', title: 'to' },
            { field: 'count', type: 'quantitative', title: 'turns' },
          ],
        },
      },
      {
        data: { values: marks },
        mark: { type: 'rule', strokeWidth: 3 },
        encoding: {
          x: { field: 'score', type: 'quantitative' },
          color: {
            field: 'memory',
            type: 'nominal',
            scale: { domain, range: MEMORY_COLORS.slice(0, Math.max(1, domain.length)) },
            legend: { title: null, orient: 'top' },
          },
          strokeDash: {
            field: 'memory',
            type: 'nominal',
            scale: { domain, range: DASHES.slice(0, Math.max(1, domain.length)) },
            legend: { title: null, orient: 'top' },
          },
          description: { field: 'aria', type: 'nominal' },
          tooltip: [
            { field: 'memory', type: 'nominal' },
            { field: 'score', type: 'quantitative', format: '.3f' },
            { field: 'rank', type: 'quantitative' },
          ],
        },
      },
    ],
    config: CHART_CONFIG,
  };
}
