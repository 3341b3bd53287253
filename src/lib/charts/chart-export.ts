import type { TopLevelSpec } from 'vega-lite';

/** What a figure carries out of the page: its title, where the numbers come from, and a way back. */
export interface FigureLabel {
  title: string;
  source: string;
  /** The page's URL with its hash, so the figure links back to the same view. */
  url: string;
}

/** Where the exported figure sits when the chart on screen follows its card's width. */
const EXPORT_WIDTH_FALLBACK = 720;

/**
 * The chart as a figure that stands alone: titled, with its source and MemLens's link, at the
 * width it has on screen, and with its data inline (so it runs in the Vega editor as it is).
 */
export function figureSpec(
  spec: TopLevelSpec,
  label: FigureLabel,
  width: number | null,
): TopLevelSpec {
  const figure = structuredClone(spec);
  const subtitle = [label.source ? `Source: ${label.source}` : '', `MemLens: ${label.url}`];
  figure.title = { text: label.title, subtitle: subtitle.filter((line) => line !== '') };
  if ('width' in figure && figure.width === 'container') {
    figure.width = width && width > 0 ? Math.round(width) : EXPORT_WIDTH_FALLBACK;
    figure.autosize = { type: 'pad' };
  }
  return figure;
}

/** The spec as the text a reader pastes into the Vega editor. */
export function specText(spec: TopLevelSpec): string {
  return `${JSON.stringify(spec, null, 2)}\n`;
}
