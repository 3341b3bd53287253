import type { View } from 'vega';
import { pickedEntries, type LegendParam } from './legend-state.ts';

/** Calls `onchange` with the picked legend entries whenever the reader changes them; returns the unsubscribe. */
export function watchLegend(
  view: View,
  param: LegendParam,
  onchange: (values: string[]) => void,
): () => void {
  const listener = (_name: string, value: unknown) => onchange(pickedEntries(value, param.field));
  view.addSignalListener(param.name, listener);
  return () => view.removeSignalListener(param.name, listener);
}

/** The entries picked in the view now. */
export function currentLegend(view: View, param: LegendParam): string[] {
  return pickedEntries(view.signal(param.name), param.field);
}
