// Typed listeners on a Vega-Lite selection's top-level signal: an x-interval (`{ field: [lo, hi] }`)
// or a point pick (`{ field: [value] }`). An empty selection reads as null.
import type { View } from 'vega';

type Unsubscribe = () => void;

function fieldValues(value: unknown, field: string): unknown[] | null {
  if (typeof value !== 'object' || value === null) return null;
  const found = Object.entries(value).find(([k]) => k === field)?.[1];
  return Array.isArray(found) ? found : null;
}

/** `{ start: [0.2, 0.4] }` → [0.2, 0.4], low end first; anything else → null. */
export function intervalOf(value: unknown, field: string): [number, number] | null {
  const values = fieldValues(value, field);
  if (!values || values.length !== 2) return null;
  const [a, b] = values;
  if (typeof a !== 'number' || typeof b !== 'number' || !Number.isFinite(a) || !Number.isFinite(b))
    return null;
  return a <= b ? [a, b] : [b, a];
}

/** `{ key: ['q:1'] }` → 'q:1'; anything else → null. */
export function pickedOf(value: unknown, field: string): string | null {
  const values = fieldValues(value, field);
  const first = values?.[0];
  return typeof first === 'string' ? first : null;
}

/** The view (unit) a selection was made in, e.g. a facet's cell: its store's first tuple's `unit`. */
export function selectionUnit(view: View, param: string): string | null {
  const tuples: unknown[] = view.data(`${param}_store`);
  const first = tuples[0];
  if (typeof first !== 'object' || first === null) return null;
  const unit = Object.entries(first).find(([k]) => k === 'unit')?.[1];
  return typeof unit === 'string' ? unit : null;
}

/**
 * Calls `listener` with the interval, and the unit it was drawn in, each time the selection
 * changes; with `settleMs`, only once it has stopped changing for that long (a drag sets the
 * signal on every mouse move).
 */
export function onInterval(
  view: View,
  param: string,
  field: string,
  listener: (range: [number, number] | null, unit: string | null) => void,
  settleMs = 0,
): Unsubscribe {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const handler = (_name: string, value: unknown) => {
    const range = intervalOf(value, field);
    const report = () => listener(range, range ? selectionUnit(view, param) : null);
    if (settleMs <= 0) return report();
    clearTimeout(timer);
    timer = setTimeout(report, settleMs);
  };
  view.addSignalListener(param, handler);
  return () => {
    clearTimeout(timer);
    view.removeSignalListener(param, handler);
  };
}

/** Calls `listener` with the picked value (null when the pick is cleared). */
export function onPick(
  view: View,
  param: string,
  field: string,
  listener: (value: string | null) => void,
): Unsubscribe {
  const handler = (_name: string, value: unknown) => listener(pickedOf(value, field));
  view.addSignalListener(param, handler);
  return () => view.removeSignalListener(param, handler);
}
