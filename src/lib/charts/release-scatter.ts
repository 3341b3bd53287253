import type { TopLevelSpec } from 'vega-lite';
import { CHART_CONFIG, VL_SCHEMA } from './chart-kit.ts';
import type { ReleaseComparison } from '../protocol-kit/locomo-plus-release.ts';

export interface ReleaseDatum {
  item_id: string;
  relation_type: string;
  released: number;
  recomputed: number;
  deviation: number;
  aria: string;
}

export function releaseData(release: Pick<ReleaseComparison, 'rows'>): ReleaseDatum[] {
  return release.rows.flatMap((r) =>
    r.released === null || r.deviation === null
      ? []
      : [
          {
            item_id: r.item_id,
            relation_type: r.relation_type,
            released: r.released,
            recomputed: r.recomputed,
            deviation: r.deviation,
            aria: `${r.item_id} | ${r.relation_type} | released ${r.released.toFixed(4)} | recomputed ${r.recomputed.toFixed(4)}`,
          },
        ],
  );
}

/** Released scores.bge against ours, one point per item, over the line where they are equal. */
export function releaseScatterSpec(release: ReleaseComparison): TopLevelSpec {
  const data = releaseData(release);
  const values = data.flatMap((d) => [d.released, d.recomputed]);
  const lo = Math.min(0, ...values);
  const hi = Math.max(1, ...values);
  const axis = { type: 'quantitative' as const, scale: { domain: [lo, hi] } };
  return {
    $schema: VL_SCHEMA,
    description: `LoCoMo-Plus released scores.bge vs recomputed with ${release.modelLabel}`,
    width: 320,
    height: 320,
    layer: [
      {
        data: { values: [{ x: lo }, { x: hi }] },
        mark: { type: 'line', color: '#999', strokeDash: [4, 3], aria: false },
        encoding: {
          x: { field: 'x', ...axis },
          y: { field: 'x', ...axis },
        },
      },
      {
        data: { values: data },
        mark: { type: 'point', filled: true, opacity: 0.6, tooltip: true },
        encoding: {
          x: { field: 'released', ...axis, title: 'released scores.bge' },
          y: { field: 'recomputed', ...axis, title: `recomputed (${release.modelLabel})` },
          color: {
            field: 'relation_type',
            type: 'nominal',
            legend: { title: null, orient: 'top' },
          },
          description: { field: 'aria', type: 'nominal' },
          tooltip: [
            { field: 'item_id', type: 'nominal', title: 'item' },
            { field: 'relation_type', type: 'nominal', title: 'relation' },
            { field: 'released', type: 'quantitative', format: '.6f' },
            { field: 'recomputed', type: 'quantitative', format: '.6f' },
            { field: 'deviation', type: 'quantitative', format: '.2e' },
          ],
        },
      },
    ],
    config: CHART_CONFIG,
  };
}
