// The chart theme and parts. Paper charts import it whole (`import * as kit`) and CHART_CONFIG by
// name: the theme test reads `config: CHART_CONFIG` in every module that writes a spec.
import type { TopLevelSpec } from 'vega-lite';
import { bindQuery, type BoundQuery } from '../query/define-query.ts';
import { anyRow, type RowDecoder } from '../query/row-schema.ts';
import type { SqlRow } from '../db/engine.ts';
import { provenanceTooltip, type ProvenanceFields } from './provenance.ts';

export const VL_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
/** Chart text on the chart's white card: #1b1f24 is 16:1, #4b5563 7.6:1 (WCAG AA needs 4.5:1). */
export const CHART_INK = '#1b1f24';
export const CHART_INK_MUTED = '#4b5563';
export const CHART_BACKGROUND = '#ffffff';

/** Okabe–Ito: distinguishable under the common colour-vision deficiencies. */
export const OKABE_ITO = {
  black: '#000000',
  orange: '#E69F00',
  sky: '#56B4E9',
  green: '#009E73',
  yellow: '#F0E442',
  blue: '#0072B2',
  vermillion: '#D55E00',
  purple: '#CC79A7',
  grey: '#999999',
} as const;

/** Series without their own colours: Okabe–Ito without yellow (1.2:1 on white). */
export const CATEGORY_COLORS = [
  OKABE_ITO.blue,
  OKABE_ITO.orange,
  OKABE_ITO.green,
  OKABE_ITO.vermillion,
  OKABE_ITO.purple,
  OKABE_ITO.sky,
  OKABE_ITO.black,
  OKABE_ITO.grey,
];

/**
 * The one theme of every chart. Charts stay on a white card in dark mode too: the Okabe–Ito
 * colours are tuned for white, and a PNG or SVG export looks the same as the chart on screen.
 */
export const CHART_CONFIG = {
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  background: CHART_BACKGROUND,
  view: { stroke: null },
  padding: 8,
  title: {
    fontSize: 16,
    fontWeight: 600,
    color: CHART_INK,
    subtitleFontSize: 12,
    subtitleColor: CHART_INK_MUTED,
    anchor: 'start',
    offset: 12,
  },
  axis: {
    labelFontSize: 12,
    titleFontSize: 13,
    titleFontWeight: 600,
    labelColor: CHART_INK,
    titleColor: CHART_INK,
    domainColor: CHART_INK_MUTED,
    tickColor: CHART_INK_MUTED,
    gridColor: '#e3e6ea',
    // Tick labels closer than this are thinned (Vega's overlap rule), never run together ("−100−90").
    labelSeparation: 4,
  },
  legend: {
    labelFontSize: 12,
    titleFontSize: 13,
    titleFontWeight: 600,
    labelColor: CHART_INK,
    titleColor: CHART_INK,
    symbolSize: 120,
  },
  header: { labelFontSize: 13, titleFontSize: 13, labelColor: CHART_INK, titleColor: CHART_INK },
  text: { fontSize: 12, color: CHART_INK },
  range: { category: CATEGORY_COLORS },
} as const;

/** Single and layered views take the card's width (Vega re-lays them out when it resizes). */
export const FULL_WIDTH = {
  width: 'container',
  autosize: { type: 'fit-x', contains: 'padding' },
} as const;

/** One `results` row as the chart queries select it (snake_case, as DuckDB returns it). */
export interface ResultDatum extends ProvenanceFields {
  row: string;
  column: string;
  system: string;
  variant: string;
  metric: string;
  value: number;
  value_text: string;
  unit: string;
  delta: string;
}

/** A chart on a paper page: one SQL query, and a pure function from its rows to a spec. */
export interface ChartDef {
  id: string;
  title: string;
  /** Where the numbers are printed in the paper. */
  source: string;
  sql: string;
  spec(rows: SqlRow[]): TopLevelSpec;
}

/** The columns every results chart selects, as DuckDB returns them. */
export const RESULT_COLUMNS = {
  paper: 'string',
  table: 'string',
  section: 'string',
  source_line: 'number',
  note: 'string',
  row: 'string',
  column: 'string',
  system: 'string',
  variant: 'string',
  metric: 'string',
  value: 'number',
  value_text: 'string',
  unit: 'string',
  delta: 'string',
} as const;

/** What every chart over `results` selects: each of its queries returns exactly the rows it draws. */
export const RESULT_FIELDS = `"row", "column", system, variant, metric, value, value_text, unit, delta,
  paper, "table", section, source_line, note`;

interface TypedChart<T> extends Omit<ChartDef, 'spec'> {
  decode: RowDecoder<T>;
  spec(rows: T[]): TopLevelSpec;
}

/** A chart whose rows are checked against its decoder before the spec sees them. */
export function defineChart<T>(chart: TypedChart<T>): ChartDef {
  const { decode, spec, ...meta } = chart;
  return { ...meta, spec: (rows) => spec(rows.map((row, i) => decode(row, i))) };
}

/** The chart's SQL as a query: its rows go to Vega as they are (the spec checks them). */
export function chartQuery(chart: ChartDef): BoundQuery<SqlRow> {
  return bindQuery(chart.title, { sql: chart.sql, params: [] }, anyRow);
}

/**
 * Vega-Lite writes the `description` encoding into each mark's aria-label; every data mark reads
 * `label | metric | value`, which the tests parse. Arguments are Vega expressions.
 */
export function ariaTransform(label: string, metric: string, value: string) {
  return { calculate: `${label} + ' | ' + ${metric} + ' | ' + ${value}`, as: 'aria' };
}

export const ARIA_ENCODING = { field: 'aria', type: 'nominal' } as const;

/** Marks that only decorate (connectors, arrowheads, labels) stay out of the accessibility tree. */
export const DECORATION = { aria: false } as const;

export function legendFilter(name: string, field: string) {
  return { name, select: { type: 'point' as const, fields: [field] }, bind: 'legend' as const };
}

export function filteredOpacity(param: string) {
  return { condition: { param, value: 1 }, value: 0.15 };
}

export function colorEncoding(
  field: string,
  domain: readonly string[],
  range: readonly string[],
  title: string,
) {
  return {
    field,
    type: 'nominal' as const,
    sort: [...domain],
    scale: { domain: [...domain], range: [...range] },
    legend: {
      title: `${title} (click to filter)`,
      orient: 'top' as const,
      // The legend starts at the plot's left edge: on a phone its title ends at the plot's right.
      // A concat view has no width of its own (0): its legend gets the room a title needs.
      titleLimit: { expr: 'width <= 0 ? 300 : width < 480 ? max(180, width) : 400' },
      labelLimit: 300,
      // One entry per line where a row of them would be cut (a phone); one row otherwise.
      columns: NARROW_LEGEND_COLUMNS,
    },
  };
}

/** Legend columns by the view's width: 1 below 480 px, else a single row (0). */
export const NARROW_LEGEND_COLUMNS = { expr: 'width < 480 ? 1 : 0' } as const;

/** Tooltip: the printed value and what it is, then where the paper prints it. */
export function resultTooltip(...fields: { field: string; title: string }[]) {
  return [...fields.map((f) => ({ ...f, type: 'nominal' as const })), ...provenanceTooltip()];
}

/**
 * A legend-filtered layer's selection (`pick` on `field`) and its spoken row: the datum's `label`,
 * its `metric` (the legend's field unless named) and its printed value (see ariaTransform).
 */
export function pickedLayer(pick: string, field: string, label: string, metric = field) {
  return {
    params: [legendFilter(pick, field)],
    transform: [ariaTransform(`datum.${label}`, `datum.${metric}`, 'datum.value_text')],
  };
}

/** A mark's spoken row and tooltip. */
export function spokenTooltip(...fields: { field: string; title: string }[]) {
  return { description: ARIA_ENCODING, tooltip: resultTooltip(...fields) };
}

/** A legend-filtered mark: faded when `pick` leaves it out, spoken, with a tooltip. */
export function pickedMarks(pick: string, ...fields: { field: string; title: string }[]) {
  return { opacity: filteredOpacity(pick), ...spokenTooltip(...fields) };
}

export function firstSeen<T>(rows: readonly T[], key: (r: T) => string): string[] {
  return [...new Set(rows.map(key))];
}

/** "…, paper text line 97" or "lines 123–141", from the rows' source_line. */
export function sourcePointer(source: string, textFile: string, rows: readonly SqlRow[]): string {
  if (!textFile) return source;
  const lines = rows.map((r) => Number(r.source_line)).filter((n) => Number.isInteger(n) && n > 0);
  if (lines.length === 0) return source;
  const lo = Math.min(...lines);
  const hi = Math.max(...lines);
  return `${source} · ${textFile} ${lo === hi ? `line ${lo}` : `lines ${lo}–${hi}`}`;
}
