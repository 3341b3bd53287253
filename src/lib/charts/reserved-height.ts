// The height a chart's card keeps for it before Vega has drawn it, estimated from the spec and its
// inline rows, so the page below does not jump when the drawing arrives (layout shift). Once drawn,
// the card keeps the drawn height instead.

type Json = Record<string, unknown>;

/** Vega-Lite's default height of a continuous view, and its step per discrete value. */
const DEFAULT_HEIGHT = 200;
const DEFAULT_STEP = 20;
/** An axis's labels and title, and a chart title with its subtitle. */
const AXIS = 48;
const TITLE = 22;
const SPACING = 20;

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rowsOf(spec: Json, inherited: readonly unknown[]): readonly unknown[] {
  const data = spec.data;
  return isJson(data) && Array.isArray(data.values) ? data.values : inherited;
}

function distinct(rows: readonly unknown[], field: unknown): number {
  if (typeof field !== 'string') return rows.length;
  return new Set(rows.map((row) => (isJson(row) ? row[field] : undefined))).size;
}

/** The y channel of a view or of its first layer that has one. */
function yChannel(spec: Json): Json | undefined {
  const own = isJson(spec.encoding) ? spec.encoding.y : undefined;
  if (isJson(own)) return own;
  if (!Array.isArray(spec.layer)) return undefined;
  for (const layer of spec.layer) {
    const y = isJson(layer) && isJson(layer.encoding) ? layer.encoding.y : undefined;
    if (isJson(y)) return y;
  }
  return undefined;
}

function titleHeight(spec: Json): number {
  const title = spec.title;
  if (title === undefined || title === null || title === '') return 0;
  return isJson(title) && title.subtitle ? TITLE * 2 : TITLE;
}

/** The plot's own height: a number, or a step times the discrete values on y. */
function plotHeight(spec: Json, rows: readonly unknown[]): number {
  const height = spec.height;
  if (typeof height === 'number') return height;
  const y = yChannel(spec);
  const discrete = y && (y.type === 'nominal' || y.type === 'ordinal');
  const step = isJson(height) && typeof height.step === 'number' ? height.step : DEFAULT_STEP;
  if (!discrete) return DEFAULT_HEIGHT;
  const sort = y.sort;
  const count = Array.isArray(sort) && sort.length > 0 ? sort.length : distinct(rows, y.field);
  return Math.max(1, count) * step;
}

function viewHeight(spec: Json, rows: readonly unknown[]): number {
  const own = rowsOf(spec, rows);
  if (Array.isArray(spec.vconcat)) {
    const parts = spec.vconcat.filter(isJson).map((part) => viewHeight(part, own));
    return parts.reduce((sum, h) => sum + h, 0) + SPACING * Math.max(0, parts.length - 1);
  }
  if (Array.isArray(spec.hconcat)) {
    return Math.max(0, ...spec.hconcat.filter(isJson).map((part) => viewHeight(part, own)));
  }
  if (isJson(spec.spec) && isJson(spec.facet)) {
    const inner = spec.spec;
    const facet = spec.facet;
    const field = isJson(facet.row) ? facet.row.field : facet.field;
    const panels = Math.max(1, distinct(own, field));
    const columns = typeof spec.columns === 'number' && spec.columns > 0 ? spec.columns : 1;
    const rowsOfPanels = isJson(facet.row) ? panels : Math.ceil(panels / columns);
    const panel = plotHeight(inner, own) + TITLE + AXIS;
    return titleHeight(spec) + rowsOfPanels * panel + SPACING * (rowsOfPanels - 1);
  }
  return titleHeight(spec) + plotHeight(spec, own) + AXIS;
}

/** Pixels to keep for the chart `spec` before it is drawn. */
export function reservedHeight(spec: unknown): number {
  return isJson(spec) ? Math.round(viewHeight(spec, [])) : DEFAULT_HEIGHT + AXIS;
}
