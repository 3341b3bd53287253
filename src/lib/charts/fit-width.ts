// Vega-Lite sizes a single or layered view to its container ('container' width), but not a facet
// or a concatenation: those keep the pixel widths their spec gives. This lays them out for the
// width their card has: facet panels wrap into rows (one column on a phone) and grow to fill a wide
// card, side-by-side views stack when they do not fit, and a fixed-width view shrinks to fit.
import type { TopLevelSpec } from 'vega-lite';

/** What a chart's builder may say about fitting it (in `usermeta.fit`). */
export interface FitHint {
  /** The narrowest a panel may be before the panels wrap to another row. */
  minPanel: number;
  /** Pixels beside the panels: the y axis's labels and title, the padding. */
  aside: number;
  /** Panel height per pixel of width, so a wider panel is also taller (never below the spec's). */
  aspect?: number;
}

export const DEFAULT_FIT: FitHint = { minPanel: 220, aside: 90 };
/** Vega-Lite's default spacing between facet panels and concatenated views. */
const SPACING = 20;
/** Panel widths move in steps of this many pixels, so a small resize does not redraw. */
const STEP = 8;

export interface Fitted {
  spec: TopLevelSpec;
  /** Equal keys draw the same layout (a redraw is needed only when it changes). */
  key: string;
  /** Whether the layout depends on an estimate of `aside` (a measured overflow may correct it). */
  estimated: boolean;
}

type Row = Record<string, unknown>;
type Resolve = NonNullable<Extract<TopLevelSpec, { facet: unknown }>['resolve']>;

function isRecord(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function numberAt(record: Row, key: string): number | undefined {
  const value = record[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The builder's hint, each field checked (a hint that does not parse is the default's). */
export function fitHint(spec: TopLevelSpec): FitHint {
  const fit = isRecord(spec.usermeta) ? spec.usermeta.fit : undefined;
  if (!isRecord(fit)) return DEFAULT_FIT;
  return {
    minPanel: numberAt(fit, 'minPanel') ?? DEFAULT_FIT.minPanel,
    aside: numberAt(fit, 'aside') ?? DEFAULT_FIT.aside,
    aspect: numberAt(fit, 'aspect'),
  };
}

/** The panels a facet on `field` draws: its sort order when given, else the inline data's values. */
function panelCount(spec: TopLevelSpec, field: unknown, sort: unknown): number {
  if (Array.isArray(sort) && sort.length > 0) return sort.length;
  const data = 'data' in spec && isRecord(spec.data) ? spec.data.values : undefined;
  if (typeof field !== 'string' || !Array.isArray(data)) return 0;
  const values: unknown[] = data;
  return new Set(values.map((row) => (isRecord(row) ? row[field] : undefined))).size;
}

/** Columns for n panels in `avail` px: as many as fit, then evened out (5 in 3 columns: 3 + 2). */
export function facetColumns(n: number, avail: number, minPanel: number): number {
  const fit = Math.floor((avail + SPACING) / (minPanel + SPACING));
  const most = Math.max(1, Math.min(n, fit));
  const rows = Math.ceil(n / most);
  return Math.ceil(n / rows);
}

function panelWidth(avail: number, columns: number): number {
  const exact = (avail - (columns - 1) * SPACING) / columns;
  return Math.max(STEP * 10, Math.floor(exact / STEP) * STEP);
}

function withOwnXAxis(resolve: Resolve | undefined): Resolve {
  return { ...resolve, axis: { ...resolve?.axis, x: 'independent' } };
}

function fitFacet(spec: TopLevelSpec, avail: number, hint: FitHint): Fitted | null {
  if (!('facet' in spec)) return null;
  const { facet, spec: inner } = spec;
  const height = typeof inner.height === 'number' ? inner.height : undefined;
  const grow = (width: number) =>
    hint.aspect && height
      ? Math.max(height, Math.min(height * 2, Math.round(width * hint.aspect)))
      : height;
  const mapping = 'column' in facet || 'row' in facet ? facet : null;
  const single = 'field' in facet ? facet : undefined;
  const wrapped = single ?? (mapping && !mapping.row ? mapping.column : undefined);
  if (wrapped) {
    const n = panelCount(spec, wrapped.field, wrapped.sort);
    if (n === 0) return null;
    const columns = facetColumns(n, avail, hint.minPanel);
    const width = panelWidth(avail, columns);
    const h = grow(width);
    const sized = h === undefined ? { ...inner, width } : { ...inner, width, height: h };
    // Panels in rows each keep their own x axis: a reader of the top one need not scroll down.
    const resolve = columns < n ? withOwnXAxis(spec.resolve) : spec.resolve;
    return {
      spec: { ...spec, facet: wrapped, columns, spec: sized, ...(resolve ? { resolve } : {}) },
      key: `facet:${columns}:${width}:${h ?? ''}`,
      estimated: true,
    };
  }
  // Rows and columns both: the columns shrink to fit (never below a readable width) or grow.
  const column = mapping?.column;
  const columns = column ? panelCount(spec, column.field, column.sort) : 1;
  if (columns === 0) return null;
  const width = panelWidth(avail, columns);
  // A wide card gives each panel up to twice its own width (wider, a short panel reads flat).
  const own = typeof inner.width === 'number' ? inner.width : width;
  const shown = Math.min(own * 2, width);
  return {
    spec: { ...spec, spec: { ...inner, width: shown } },
    key: `grid:${shown}`,
    estimated: true,
  };
}

function fitConcat(spec: TopLevelSpec, avail: number, hint: FitHint): Fitted | null {
  if (!('hconcat' in spec)) return null;
  const parts: unknown[] = spec.hconcat;
  const widths = parts.map((part) => (isRecord(part) ? numberAt(part, 'width') : undefined));
  const known = widths.filter((w): w is number => w !== undefined);
  if (known.length !== widths.length) return null;
  const total = known.reduce((a, b) => a + b, 0) + (hint.aside + SPACING) * known.length;
  if (total - SPACING <= avail) return { spec, key: 'hconcat', estimated: true };
  const { hconcat, ...rest } = spec;
  const width = Math.floor((avail - hint.aside) / STEP) * STEP;
  const vconcat = hconcat.map((part) =>
    'width' in part && typeof part.width === 'number'
      ? { ...part, width: Math.min(part.width, width) }
      : part,
  );
  // Stacked views are each as wide as the card allows: a measured overflow (a legend) would
  // only shrink their plots, so none is corrected.
  return { spec: { ...rest, vconcat }, key: `vconcat:${width}`, estimated: false };
}

function fitSingle(spec: TopLevelSpec, avail: number, hint: FitHint): Fitted | null {
  if (!('width' in spec) || typeof spec.width !== 'number') return null;
  if (spec.width + hint.aside <= avail) return null;
  const width = Math.floor((avail - hint.aside) / STEP) * STEP;
  return { spec: { ...spec, width }, key: `single:${width}`, estimated: true };
}

/**
 * The spec laid out for a card `width` px wide; `correction` px more (or fewer) beside the panels
 * than the hint says, once a drawn chart has shown the estimate was off. A spec that needs no
 * fitting comes back as it is, with the same key at every width.
 */
export function fitToWidth(spec: TopLevelSpec, width: number, correction = 0): Fitted {
  if (width <= 0) return { spec, key: 'unmeasured', estimated: false };
  const hint = fitHint(spec);
  const avail = width - hint.aside - correction;
  return (
    fitFacet(spec, avail, hint) ??
    fitConcat(spec, width - correction, hint) ??
    fitSingle(spec, width - correction, hint) ?? { spec, key: 'as-is', estimated: false }
  );
}
