// Updating a running view's named datasets in place, so a chart whose rows change (a pick, a
// brush) is neither recompiled nor re-embedded: Vega re-encodes only the tuples that changed, and
// the SVG renderer redraws only their items.
import type { View } from 'vega';
import type { TopLevelSpec } from 'vega-lite';

export interface DataChange {
  inserted: number;
  modified: number;
  removed: number;
}

type Tuple = Record<string, unknown>;

export interface RowDiff {
  inserts: object[];
  modifies: { tuple: Tuple; field: string; value: unknown }[];
  removes: Tuple[];
}

/** The rows of `next` whose key is not in `current`, the fields that differ, the tuples gone. */
export function diffRows<T extends object>(
  current: readonly Tuple[],
  next: readonly T[],
  key: keyof T & string,
): RowDiff {
  const byKey = new Map(current.map((t) => [t[key], t]));
  const kept = new Set<unknown>();
  const diff: RowDiff = { inserts: [], modifies: [], removes: [] };
  for (const row of next) {
    const id: unknown = row[key];
    const tuple = byKey.get(id);
    if (!tuple || kept.has(id)) {
      diff.inserts.push({ ...row });
      continue;
    }
    kept.add(id);
    for (const [field, value] of Object.entries(row)) {
      const now: unknown = value;
      if (!Object.is(tuple[field], now)) diff.modifies.push({ tuple, field, value: now });
    }
  }
  diff.removes = current.filter((t) => !kept.has(t[key]));
  return diff;
}

/** One named dataset's new rows, matched to its tuples by `key`. */
export interface DatasetRows {
  name: string;
  diff(current: readonly Tuple[]): RowDiff;
}

export function datasetRows<T extends object>(
  name: string,
  rows: readonly T[],
  key: keyof T & string,
): DatasetRows {
  return { name, diff: (current) => diffRows(current, rows, key) };
}

const isTuple = (value: unknown): value is Tuple => typeof value === 'object' && value !== null;

/** Syncs in flight per view: each one diffs against what the one before it left. */
const queues = new WeakMap<View, Promise<unknown>>();

async function apply(view: View, sets: readonly DatasetRows[]): Promise<DataChange> {
  const total: DataChange = { inserted: 0, modified: 0, removed: 0 };
  for (const set of sets) {
    const current: unknown[] = view.data(set.name);
    const { inserts, modifies, removes } = set.diff(current.filter(isTuple));
    if (inserts.length + modifies.length + removes.length === 0) continue;
    const change = view.changeset().insert(inserts);
    if (removes.length) change.remove(removes);
    for (const m of modifies) change.modify(m.tuple, m.field, m.value);
    view.change(set.name, change);
    total.inserted += inserts.length;
    total.modified += new Set(modifies.map((m) => m.tuple)).size;
    total.removed += removes.length;
  }
  if (total.inserted + total.modified + total.removed > 0) await view.runAsync();
  return total;
}

/**
 * Brings named datasets of a running view to their new rows, in one dataflow run: changed fields
 * are modified, new keys inserted, missing ones removed. Resolves once the view has re-rendered;
 * calls on one view run one after another.
 */
export function syncDatasets(view: View, sets: readonly DatasetRows[]): Promise<DataChange> {
  const run = (queues.get(view) ?? Promise.resolve()).then(() => apply(view, sets));
  queues.set(
    view,
    run.catch(() => undefined),
  );
  return run;
}

/**
 * The spec with its named datasets as the view draws them now, for an export of a chart updated
 * in place (its spec still holds the rows it was first drawn with).
 */
export function withDrawnDatasets(spec: TopLevelSpec, view: View): TopLevelSpec {
  if (!spec.datasets) return spec;
  const datasets = Object.fromEntries(
    Object.keys(spec.datasets).map((name) => {
      const tuples: unknown[] = view.data(name);
      // Plain copies: Vega's own tuple id (a symbol key) stays behind.
      return [name, tuples.filter(isTuple).map((t) => Object.fromEntries(Object.entries(t)))];
    }),
  );
  return { ...spec, datasets };
}
