import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { Catalog } from '../../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import { loadResults } from '../../../src/lib/loaders/core-loader.ts';
import { PAPERS } from '../../../src/lib/benchmarks/registry.ts';
import { OVERVIEW_CHART } from '../../../src/lib/benchmarks/overview.ts';
import { PAPER_CHARTS } from '../../../src/lib/benchmarks/papers.ts';
import { SITE, siteFetch } from '../data/site-fetch.ts';

/** All four results CSVs in DuckDB-WASM (Node build), loaded exactly as the site loads them. */
export async function resultsCatalog(): Promise<Catalog> {
  const catalog = new Catalog(await openNodeEngine());
  const files = PAPERS.map((p) => ({
    name: `data/results/${p}.csv`,
    url: `${SITE}data/results/${p}.csv`,
  }));
  await loadResults(catalog, files, siteFetch());
  return catalog;
}

/** What the export tests label a figure with: markup-like text and a hash URL with state. */
export const EXPORT_LABEL = {
  title: 'Recalled when asked & rarely used',
  source: 'Best row per paper <and side>',
  url: 'http://127.0.0.1:4173/memlens/#/home?legend.overview-recall-vs-use=Use',
};

/** The Overview (a layered chart) and LoCoMo-Conv Table 4 (a faceted one), from the real rows. */
export async function exportSpecs(): Promise<{ overview: TopLevelSpec; facet: TopLevelSpec }> {
  const catalog = await resultsCatalog();
  try {
    const overview = OVERVIEW_CHART.spec(await catalog.query(OVERVIEW_CHART.sql));
    const [table4] = PAPER_CHARTS['locomo-conv'];
    return { overview, facet: table4.spec(await catalog.query(table4.sql)) };
  } finally {
    await catalog.engine.close();
  }
}

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

/**
 * Data marks: items (not groups) that carry an aria-label. Axes and legends are labelled groups;
 * decoration marks are `aria: false` and carry none.
 */
export function dataMarkLabels(svg: string): string[] {
  const labels: string[] = [];
  for (const [, tag, attrs] of svg.matchAll(/<([a-z]+)\b([^>]*)>/g)) {
    const label = /\baria-label="([^"]*)"/.exec(attrs);
    if (tag !== 'g' && label)
      labels.push(label[1].replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]));
  }
  return labels;
}

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

/** Every object in a spec that has a `mark`: the unit views, layers included. */
export function unitSpecs(spec: unknown): Record<string, Json>[] {
  const out: Record<string, Json>[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const obj = node as Record<string, Json>;
      if ('mark' in obj) out.push(obj);
      for (const [k, v] of Object.entries(obj)) if (k !== 'data') walk(v);
    }
  };
  walk(spec);
  return out;
}

/** Every `range` array of a colour scale in the spec. */
export function colorRanges(spec: unknown): string[] {
  const out: string[] = [];
  const walk = (node: unknown, key: string) => {
    if (Array.isArray(node)) node.forEach((n) => walk(n, key));
    else if (node && typeof node === 'object') {
      const obj = node as Record<string, unknown>;
      const scale = obj.scale as { range?: unknown } | undefined;
      if (key === 'color' && scale && Array.isArray(scale.range))
        out.push(...(scale.range as string[]));
      for (const [k, v] of Object.entries(obj)) if (k !== 'data') walk(v, k);
    }
  };
  walk(spec, '');
  return out;
}

/** Snapshot text exactly as Prettier would write it, so `format:check` and the snapshots agree. */
export async function prettyJson(value: unknown): Promise<string> {
  const { format } = await import('prettier');
  return format(JSON.stringify(value), { parser: 'json', printWidth: 100 });
}

/**
 * Draws a spec headless and returns what Vega warned, as the browser console would show it, less
 * what only Node says (no `window` for a chart that follows its container's width).
 */
export async function vegaWarnings(
  spec: TopLevelSpec,
  then: (view: vega.View) => Promise<unknown> = async () => undefined,
): Promise<string[]> {
  const warnings: string[] = [];
  const log = vega.logger(vega.Warn, 'warn', (_method, _level, args) => {
    const text = args.map(String).join(' ');
    if (text !== 'Can not resolve event source: window') warnings.push(text);
  });
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none', logger: log });
  try {
    await view.runAsync();
    await then(view);
    return warnings;
  } finally {
    view.finalize();
  }
}
