/** Typed codecs for view state kept in URL parameters: lists, legend picks, table sorts. */

export type ParamChanges = Record<string, string | null>;

/** `a,b`: each value with `%` and `,` escaped, so a legend entry may itself hold a comma. */
export function encodeList(values: readonly string[]): string {
  return values.map((v) => v.replaceAll('%', '%25').replaceAll(',', '%2C')).join(',');
}

export function decodeList(text: string | undefined): string[] {
  if (!text) return [];
  return text
    .split(',')
    .map((part) => part.replace(/%(25|2C)/gi, (escape) => (escape === '%25' ? '%' : ',')))
    .filter((v) => v !== '');
}

/** One URL parameter per chart with a legend filter: `legend.<chartId>=entry,entry`. */
export function legendKey(chartId: string): string {
  return `legend.${chartId}`;
}

export function readLegend(params: Record<string, string>, chartId: string): string[] {
  return decodeList(params[legendKey(chartId)]);
}

export function legendChange(chartId: string, values: readonly string[]): ParamChanges {
  return { [legendKey(chartId)]: values.length ? encodeList(values) : null };
}

export interface SortState<C extends string> {
  column: C;
  descending: boolean;
}

/** The URL parameters that hold one table's sort: its column and `desc` for descending. */
export interface SortKeys<C extends string> {
  column: string;
  dir: string;
  columns: readonly C[];
  /** The table's own order; left out of the URL. */
  fallback: SortState<C>;
}

export function readSort<C extends string>(
  params: Record<string, string>,
  keys: SortKeys<C>,
): SortState<C> {
  const column = keys.columns.find((c) => c === params[keys.column]);
  if (column === undefined) return keys.fallback;
  return { column, descending: params[keys.dir] === 'desc' };
}

export function sortChange<C extends string>(keys: SortKeys<C>, state: SortState<C>): ParamChanges {
  const isFallback =
    state.column === keys.fallback.column && state.descending === keys.fallback.descending;
  return {
    [keys.column]: isFallback ? null : state.column,
    [keys.dir]: isFallback || !state.descending ? null : 'desc',
  };
}

/** A header click: the same column flips its direction, another column starts ascending. */
export function nextSort<C extends string>(current: SortState<C>, column: C): SortState<C> {
  return { column, descending: column === current.column ? !current.descending : false };
}
