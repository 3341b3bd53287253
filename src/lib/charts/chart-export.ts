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
  // The chart's own title holds notes (what NR and DR mean, the backbone line): kept, under ours.
  const subtitle = [
    ...titleLines(spec.title),
    label.source ? `Source: ${label.source}` : '',
    `MemLens: ${label.url}`,
  ];
  figure.title = { text: label.title, subtitle: subtitle.filter((line) => line.trim() !== '') };
  if ('width' in figure && figure.width === 'container') {
    figure.width = width && width > 0 ? Math.round(width) : EXPORT_WIDTH_FALLBACK;
    figure.autosize = { type: 'pad' };
  }
  return figure;
}

const textLines = (text: unknown): string[] =>
  typeof text === 'string'
    ? [text]
    : Array.isArray(text)
      ? text.filter((line): line is string => typeof line === 'string')
      : [];

/** A title's text and subtitle as lines; a title computed by a signal has none to keep. */
function titleLines(title: TopLevelSpec['title']): string[] {
  if (title === undefined) return [];
  if (typeof title === 'string' || Array.isArray(title)) return textLines(title);
  return [...textLines(title.text), ...textLines(title.subtitle)];
}

/** The spec as the text a reader pastes into the Vega editor. */
export function specText(spec: TopLevelSpec): string {
  return `${JSON.stringify(spec, null, 2)}\n`;
}
