import type { TopLevelSpec } from 'vega-lite';
import type { View } from 'vega';
import { datasetRows, syncDatasets, type DataChange } from './vega-data.ts';
import type { TypedQueryMark } from '../map/map-search.ts';
import {
  KIND_LABELS,
  NO_GROUP,
  type LineDatum,
  type MapColorField,
  type MapDatum,
} from '../map/map-points.ts';
import {
  ARIA_ENCODING,
  CATEGORY_COLORS,
  CHART_CONFIG,
  DECORATION,
  OKABE_ITO,
  VL_SCHEMA,
} from './chart-kit.ts';
import { POPULATION_COLORS } from './similarity-histogram.ts';
import { plural } from '../common/plural.ts';

/** The point selection a click on the map sets; its value is `{ key: [pointKey] }`. */
export const MAP_PICK = 'map_pick';
/** The named datasets a pick or brush updates in place (`syncDataset`), keyed by `key` / `rank`. */
export const MAP_POINTS = 'map_points';
export const MAP_LINES = 'map_lines';

const KIND_DOMAIN = [KIND_LABELS.background, KIND_LABELS.target, KIND_LABELS.query];
/** Target and background as the similarity histogram colours them; queries in black. */
const KIND_RANGE = [POPULATION_COLORS.background, POPULATION_COLORS.target, OKABE_ITO.black];

export interface EmbeddingMapOptions {
  /** e.g. "PCA of MiniLM unit vectors". */
  title: string;
  width?: number;
  height?: number;
  /** What the colour follows; default the kind (target / background / query). */
  colorBy?: MapColorField;
  /** A typed query to draw (a diamond, dashed lines to its nearest memories). */
  typed?: TypedQueryMark | null;
}

/** Ten colours for the groups (Okabe–Ito first); background memories, in no group, light grey. */
const GROUP_RANGE = [
  // Without Okabe–Ito's grey, too close to the light grey of memories in no group.
  ...CATEGORY_COLORS.filter((c) => c !== OKABE_ITO.grey),
  '#8C564B',
  '#7F7F7F',
  '#BCBD22',
];
const NO_GROUP_COLOR = '#DDDDDD';
/** Legend entries per row: two on a phone's plot (a row of them would be wider than it), else `wide`. */
const legendColumns = (wide: number) => ({ expr: `width < 400 ? 2 : ${wide}` });

function colorEncoding(points: readonly MapDatum[], colorBy: MapColorField) {
  if (colorBy === 'kind') {
    return {
      field: 'kind',
      type: 'nominal' as const,
      scale: { domain: KIND_DOMAIN, range: KIND_RANGE },
      legend: { title: null, orient: 'top' as const, columns: legendColumns(0) },
    };
  }
  const groups = [...new Set(points.map((p) => p.group))].filter((g) => g !== NO_GROUP).sort();
  const range = groups.map((_, i) => GROUP_RANGE[i % GROUP_RANGE.length]);
  const background = points.some((p) => p.group === NO_GROUP);
  return {
    field: 'group',
    type: 'nominal' as const,
    scale: {
      domain: background ? [...groups, NO_GROUP] : groups,
      range: background ? [...range, NO_GROUP_COLOR] : range,
    },
    legend: { title: null, orient: 'top' as const, columns: legendColumns(4) },
  };
}

type Axis = { labels: false; ticks: false; grid: false; title: null; domain: false };
type Domain = [number, number];

/**
 * The points' extent on one axis, given to the scale. Vega would otherwise take the union with
 * the lines' extent, and warns "Infinite extent" for x, x2, y and y2 on every draw and update
 * while no query is picked (no lines). Lines join points, so the points' extent holds them.
 */
export function pointDomain(
  points: readonly Pick<MapDatum, 'x' | 'y'>[],
  field: 'x' | 'y',
): Domain {
  const values = points.map((p) => p[field]).filter(Number.isFinite);
  if (values.length === 0) return [0, 1];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo < hi ? [lo, hi] : [lo - 1, hi + 1];
}

function ruleLayer(axis: Axis, x: Domain, y: Domain) {
  return {
    data: { name: MAP_LINES },
    mark: { type: 'rule' as const, strokeWidth: 1.5, color: OKABE_ITO.vermillion, ...DECORATION },
    encoding: {
      x: { field: 'x', type: 'quantitative' as const, axis, scale: { zero: false, domain: x } },
      y: { field: 'y', type: 'quantitative' as const, axis, scale: { zero: false, domain: y } },
      x2: { field: 'x2' },
      y2: { field: 'y2' },
    },
  };
}

/** The typed query's two layers: dashed lines to its nearest memories, and the point itself. */
function typedLayers(typed: TypedQueryMark, axis: Axis, x: Domain, y: Domain) {
  const position = {
    x: { field: 'x', type: 'quantitative' as const, axis, scale: { zero: false, domain: x } },
    y: { field: 'y', type: 'quantitative' as const, axis, scale: { zero: false, domain: y } },
  };
  return [
    {
      data: { values: typed.lines.map((l) => ({ ...l })) },
      mark: {
        type: 'rule' as const,
        strokeWidth: 1.2,
        strokeDash: [4, 3],
        color: OKABE_ITO.blue,
        ...DECORATION,
      },
      encoding: { ...position, x2: { field: 'x2' }, y2: { field: 'y2' } },
    },
    {
      data: {
        values: [
          { x: typed.x, y: typed.y, snippet: typed.snippet, how: typed.how, aria: typed.aria },
        ],
      },
      mark: {
        type: 'point' as const,
        shape: 'diamond',
        filled: true,
        size: 260,
        color: OKABE_ITO.blue,
        stroke: OKABE_ITO.black,
        strokeWidth: 1.5,
        tooltip: true,
      },
      encoding: {
        ...position,
        description: ARIA_ENCODING,
        tooltip: [
          { field: 'snippet', type: 'nominal' as const, title: 'your query' },
          { field: 'how', type: 'nominal' as const, title: 'placed' },
        ],
      },
    },
  ];
}

/**
 * Memories and queries on the projection's two axes, coloured target / background / query; the
 * selected query's top-k as lines to its memories; a click picks the nearest point. What a pick or
 * brush changes (lit, selected, faded, score, the lines) is data, not spec, so the drawn view can
 * be updated in place.
 */
export function embeddingMapSpec(
  points: readonly MapDatum[],
  lines: readonly LineDatum[],
  options: EmbeddingMapOptions,
): TopLevelSpec {
  const axis: Axis = { labels: false, ticks: false, grid: false, title: null, domain: false };
  // A typed query placed by PCA may fall outside the memories' extent: the axes take it in.
  const typed = options.typed ?? null;
  const extent = typed ? [...points, typed] : points;
  const x = pointDomain(extent, 'x');
  const y = pointDomain(extent, 'y');
  return {
    $schema: VL_SCHEMA,
    description: `${options.title}: ${plural(points.filter((p) => p.role === 'memory').length, 'memory', 'memories')} and ${plural(points.filter((p) => p.role === 'query').length, 'query', 'queries')}`,
    width: options.width ?? 420,
    height: options.height ?? 360,
    datasets: {
      [MAP_POINTS]: points.map((p) => ({ ...p })),
      [MAP_LINES]: lines.map((l) => ({ ...l })),
    },
    layer: [
      ruleLayer(axis, x, y),
      {
        data: { name: MAP_POINTS },
        params: [
          {
            name: MAP_PICK,
            select: { type: 'point', fields: ['key'], on: 'click', nearest: true, toggle: false },
          },
        ],
        mark: { type: 'point', filled: true, tooltip: true },
        encoding: {
          x: { field: 'x', type: 'quantitative', axis, scale: { zero: false, domain: x } },
          y: { field: 'y', type: 'quantitative', axis, scale: { zero: false, domain: y } },
          color: colorEncoding(points, options.colorBy ?? 'kind'),
          shape: {
            field: 'role',
            type: 'nominal',
            scale: { domain: ['memory', 'query'], range: ['circle', 'triangle-up'] },
            legend: null,
          },
          size: {
            condition: [
              { test: 'datum.selected', value: 220 },
              { test: 'datum.found', value: 90 },
            ],
            value: 28,
          },
          opacity: {
            condition: [
              { test: 'datum.faded', value: 0.12 },
              { test: 'datum.lit || datum.selected || datum.found', value: 1 },
            ],
            value: 0.75,
          },
          stroke: {
            condition: [
              { test: 'datum.selected', value: OKABE_ITO.black },
              { test: 'datum.found', value: OKABE_ITO.vermillion },
            ],
            value: null,
          },
          strokeWidth: { value: 2 },
          order: { field: 'lit', type: 'quantitative' },
          description: ARIA_ENCODING,
          tooltip: [
            { field: 'title', type: 'nominal', title: 'point' },
            { field: 'snippet', type: 'nominal', title: 'text' },
            { field: 'score_text', type: 'nominal', title: 'score' },
            { field: 'group', type: 'nominal', title: 'group' },
          ],
        },
      },
      ...(typed ? typedLayers(typed, axis, x, y) : []),
    ],
    config: CHART_CONFIG,
  };
}

/** A drawn map brought to new rows in place (a pick, a brush): same spec, same view. */
export function updateEmbeddingMap(
  view: View,
  points: readonly MapDatum[],
  lines: readonly LineDatum[],
): Promise<DataChange> {
  return syncDatasets(view, [
    datasetRows(MAP_POINTS, points, 'key'),
    datasetRows(MAP_LINES, lines, 'rank'),
  ]);
}
