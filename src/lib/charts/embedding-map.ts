import type { TopLevelSpec } from 'vega-lite';
import { KIND_LABELS, type LineDatum, type MapDatum } from '../map/map-points.ts';
import { ARIA_ENCODING, CHART_CONFIG, DECORATION, OKABE_ITO, VL_SCHEMA } from './chart-kit.ts';
import { POPULATION_COLORS } from './similarity-histogram.ts';

/** The point selection a click on the map sets; its value is `{ key: [pointKey] }`. */
export const MAP_PICK = 'map_pick';

const KIND_DOMAIN = [KIND_LABELS.background, KIND_LABELS.target, KIND_LABELS.query];
/** Target and background as the similarity histogram colours them; queries in black. */
const KIND_RANGE = [POPULATION_COLORS.background, POPULATION_COLORS.target, OKABE_ITO.black];

export interface EmbeddingMapOptions {
  /** e.g. "PCA of MiniLM unit vectors". */
  title: string;
  /** Whether a score range is brushed (unlit points fade). */
  ranged: boolean;
  width?: number;
  height?: number;
}

type Axis = { labels: false; ticks: false; grid: false; title: null; domain: false };

function ruleLayer(lines: readonly LineDatum[], axis: Axis) {
  return {
    data: { values: lines.map((l) => ({ ...l })) },
    mark: { type: 'rule' as const, strokeWidth: 1.5, color: OKABE_ITO.vermillion, ...DECORATION },
    encoding: {
      x: { field: 'x', type: 'quantitative' as const, axis, scale: { zero: false } },
      y: { field: 'y', type: 'quantitative' as const, axis, scale: { zero: false } },
      x2: { field: 'x2' },
      y2: { field: 'y2' },
    },
  };
}

/**
 * Memories and queries on the projection's two axes, coloured target / background / query; the
 * selected query's top-k as lines to its memories; a click picks the nearest point.
 */
export function embeddingMapSpec(
  points: readonly MapDatum[],
  lines: readonly LineDatum[],
  options: EmbeddingMapOptions,
): TopLevelSpec {
  const axis: Axis = { labels: false, ticks: false, grid: false, title: null, domain: false };
  return {
    $schema: VL_SCHEMA,
    description: `${options.title}: ${points.filter((p) => p.role === 'memory').length} memories and ${points.filter((p) => p.role === 'query').length} queries`,
    width: options.width ?? 420,
    height: options.height ?? 360,
    layer: [
      // Without a selected query there is no line layer: an empty one would have no extent.
      ...(lines.length === 0 ? [] : [ruleLayer(lines, axis)]),
      {
        data: { values: points.map((p) => ({ ...p })) },
        params: [
          {
            name: MAP_PICK,
            select: { type: 'point', fields: ['key'], on: 'click', nearest: true, toggle: false },
          },
        ],
        mark: { type: 'point', filled: true, tooltip: true },
        encoding: {
          x: { field: 'x', type: 'quantitative', axis, scale: { zero: false } },
          y: { field: 'y', type: 'quantitative', axis, scale: { zero: false } },
          color: {
            field: 'kind',
            type: 'nominal',
            scale: { domain: KIND_DOMAIN, range: KIND_RANGE },
            legend: { title: null, orient: 'top' },
          },
          shape: {
            field: 'role',
            type: 'nominal',
            scale: { domain: ['memory', 'query'], range: ['circle', 'triangle-up'] },
            legend: null,
          },
          size: {
            condition: { test: 'datum.selected', value: 220 },
            value: 28,
          },
          opacity: options.ranged
            ? { condition: { test: 'datum.lit || datum.selected', value: 1 }, value: 0.12 }
            : { value: 0.75 },
          stroke: { condition: { test: 'datum.selected', value: OKABE_ITO.black }, value: null },
          strokeWidth: { value: 2 },
          order: { field: 'lit', type: 'quantitative' },
          description: ARIA_ENCODING,
          tooltip: [
            { field: 'kind', type: 'nominal' },
            { field: 'id', type: 'nominal' },
            { field: 'snippet', type: 'nominal', title: 'text' },
            { field: 'score', type: 'quantitative', format: '.3f' },
          ],
        },
      },
    ],
    config: CHART_CONFIG,
  };
}
