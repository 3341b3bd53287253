import type { TopLevelSpec } from 'vega-lite';

/** A point selection bound to a chart's legend: clicking an entry keeps its series bright. */
export interface LegendParam {
  name: string;
  field: string;
  /** The legend's entries (the colour scale's domain); empty when the spec does not fix them. */
  domain: string[];
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/** Every object in the spec, outside its inline data. */
function* objects(node: unknown): Generator<JsonObject> {
  if (Array.isArray(node)) {
    for (const n of node) yield* objects(n);
  } else if (isObject(node)) {
    yield node;
    for (const [key, value] of Object.entries(node)) if (key !== 'data') yield* objects(value);
  }
}

function legendParamObjects(spec: unknown): { param: JsonObject; name: string; field: string }[] {
  const found: { param: JsonObject; name: string; field: string }[] = [];
  for (const obj of objects(spec)) {
    if (!Array.isArray(obj.params)) continue;
    for (const param of obj.params) {
      if (!isObject(param) || param.bind !== 'legend' || typeof param.name !== 'string') continue;
      const select = param.select;
      if (!isObject(select) || select.type !== 'point' || !isStringList(select.fields)) continue;
      if (select.fields.length === 1)
        found.push({ param, name: param.name, field: select.fields[0] });
    }
  }
  return found;
}

function colourDomain(spec: unknown, field: string): string[] {
  for (const obj of objects(spec)) {
    const color = obj.color;
    if (!isObject(color) || color.field !== field || !isObject(color.scale)) continue;
    if (isStringList(color.scale.domain)) return [...color.scale.domain];
  }
  return [];
}

/** The chart's legend filter, if it has one (a chart has at most one). */
export function legendParam(spec: TopLevelSpec): LegendParam | null {
  const [first] = legendParamObjects(spec);
  return first
    ? { name: first.name, field: first.field, domain: colourDomain(spec, first.field) }
    : null;
}

/** Values the legend can show, in the legend's order; anything else (an old or edited link) is dropped. */
export function knownEntries(param: LegendParam, values: readonly string[]): string[] {
  if (param.domain.length === 0) return [...new Set(values)];
  return param.domain.filter((entry) => values.includes(entry));
}

/** The picks after a keyboard toggle of one entry (the legend's shift-click), in the legend's order. */
export function toggledEntries(
  param: LegendParam,
  picked: readonly string[],
  entry: string,
): string[] {
  const next = picked.includes(entry) ? picked.filter((v) => v !== entry) : [...picked, entry];
  return knownEntries(param, next);
}

/** The spec drawn with these legend entries already picked (Vega-Lite's initial selection value). */
export function withLegendSelection(spec: TopLevelSpec, values: readonly string[]): TopLevelSpec {
  if (values.length === 0) return spec;
  const copy = structuredClone(spec);
  for (const { param, field } of legendParamObjects(copy))
    param.value = values.map((v) => ({ [field]: v }));
  return copy;
}

/** The picked entries from the selection's signal (`{field: [values], vlPoint: …}`, `{}` when none). */
export function pickedEntries(signal: unknown, field: string): string[] {
  if (!isObject(signal)) return [];
  const values = signal[field];
  return Array.isArray(values) ? values.map(String) : [];
}
