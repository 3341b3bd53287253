import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { Catalog } from '../../../src/lib/db/catalog.ts';
import {
  CATEGORY_COLORS,
  CHART_BACKGROUND,
  CHART_CONFIG,
  CHART_INK,
  CHART_INK_MUTED,
  OKABE_ITO,
  pickedLayer,
  pickedMarks,
} from '../../../src/lib/charts/chart-kit.ts';
import { OVERVIEW_CHART } from '../../../src/lib/benchmarks/overview.ts';
import { PAPER_CHARTS } from '../../../src/lib/benchmarks/papers.ts';
import { domainCountsSpec } from '../../../src/lib/charts/domain-counts.ts';
import { recallCurveSpec } from '../../../src/lib/charts/recall-curve.ts';
import { similarityHistogramSpec } from '../../../src/lib/charts/similarity-histogram.ts';
import { releaseScatterSpec } from '../../../src/lib/charts/release-scatter.ts';
import { compareRelease } from '../../../src/lib/protocol-kit/locomo-plus-release.ts';
import { rankingSpec } from '../../../src/features/playground/core/chart.ts';
import { rankMemories } from '../../../src/features/playground/core/rank.ts';
import { PAPERS } from '../../../src/lib/benchmarks/registry.ts';
import { renderSvg, resultsCatalog } from './chart-harness.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** WCAG 2 relative luminance and contrast ratio of two #rrggbb colours. */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

let catalog: Catalog;
const specs: { name: string; spec: TopLevelSpec }[] = [];

beforeAll(async () => {
  catalog = await resultsCatalog();
  for (const def of [...PAPERS.flatMap((p) => PAPER_CHARTS[p]), OVERVIEW_CHART])
    specs.push({ name: def.id, spec: def.spec(await catalog.query(def.sql)) });
  const release = compareRelease(
    [
      {
        item_id: 'lp-0',
        item_index: 0,
        relation_type: 'goal',
        cue_dialogue: 'A: x',
        trigger_query: 'A: y',
        released: 0.5,
        releasedBm25Rank: 1,
      },
    ],
    [0.52],
    { id: 'tiny-bert', label: 'tiny-bert', dtype: 'fp32' },
  );
  specs.push(
    { name: 'domain counts', spec: domainCountsSpec([{ domain: 'travel', tasks: 3 }]) },
    {
      name: 'recall curve',
      spec: recallCurveSpec(
        [{ series: 'naive', k: 1, recall: 0.4, lo: 0.3, hi: 0.5, method: 'wilson' }],
        1,
      ),
    },
    {
      name: 'similarity histogram',
      spec: similarityHistogramSpec(
        [{ series: 'naive', population: 'target', start: 0, end: 1, density: 1, count: 2 }],
        'cosine',
      ),
    },
    { name: 'release scatter', spec: releaseScatterSpec(release) },
    { name: 'playground ranking', spec: rankingSpec(rankMemories([0.1, 0.5, 0.9], 2), 'cosine') },
  );
});

afterAll(async () => {
  await catalog.engine.close();
});

describe('one theme for every chart', () => {
  it('every chart spec carries CHART_CONFIG', () => {
    expect(specs.length).toBeGreaterThan(15);
    for (const { name, spec } of specs) expect(spec.config, name).toBe(CHART_CONFIG);
  });

  it('every module that writes a Vega-Lite spec uses the theme (a new chart cannot skip it)', () => {
    const files = [
      ...readdirSync(path.join(repoRoot, 'src/lib/charts')).map((f) => `src/lib/charts/${f}`),
      'src/features/playground/core/chart.ts',
    ];
    const writers = files.filter((f) =>
      readFileSync(path.join(repoRoot, f), 'utf8').includes('$schema:'),
    );
    expect(writers.length).toBeGreaterThan(8);
    for (const f of writers) {
      const text = readFileSync(path.join(repoRoot, f), 'utf8');
      expect(text, f).toContain('config: CHART_CONFIG');
      expect(text, f).not.toMatch(/\$schema: '/);
    }
  });

  it('single and layered views follow their card width; every spec compiles', () => {
    for (const { name, spec } of specs) {
      expect(() => compile(spec), name).not.toThrow();
      const composite = 'facet' in spec || 'hconcat' in spec || 'vconcat' in spec;
      if (!composite && name !== 'release scatter')
        expect('width' in spec ? spec.width : undefined, name).toBe('container');
    }
  });

  it('chart text passes WCAG AA (4.5:1) on the white chart card', () => {
    const text = [
      CHART_CONFIG.title.color,
      CHART_CONFIG.title.subtitleColor,
      CHART_CONFIG.axis.labelColor,
      CHART_CONFIG.axis.titleColor,
      CHART_CONFIG.legend.labelColor,
      CHART_CONFIG.legend.titleColor,
      CHART_CONFIG.header.labelColor,
      CHART_CONFIG.text.color,
    ];
    for (const c of text) expect(contrast(c, CHART_BACKGROUND), c).toBeGreaterThanOrEqual(4.5);
    expect(contrast(CHART_INK, CHART_BACKGROUND)).toBeGreaterThan(15);
    expect(contrast(CHART_INK_MUTED, CHART_BACKGROUND)).toBeGreaterThan(7);
  });

  it('draws its fonts at readable sizes, and series in Okabe–Ito without the pale yellow', async () => {
    expect(CHART_CONFIG.axis.labelFontSize).toBeGreaterThanOrEqual(12);
    expect(CHART_CONFIG.legend.labelFontSize).toBeGreaterThanOrEqual(12);
    expect(CHART_CONFIG.title.fontSize).toBeGreaterThanOrEqual(14);
    expect(CATEGORY_COLORS).not.toContain(OKABE_ITO.yellow);
    const palette: string[] = Object.values(OKABE_ITO);
    for (const c of CATEGORY_COLORS) expect(palette).toContain(c);
    const svg = await renderSvg(specs[0].spec);
    expect(svg).toContain('font-size="12px"');
    expect(svg).toContain(`fill="${CHART_INK}"`);
  });
});

describe('legend-filtered layers', () => {
  it('select on the legend field and speak label | metric | printed value', () => {
    const layer = pickedLayer('pick', 'measure', 'label', 'column');
    expect(layer.params).toEqual([
      { name: 'pick', select: { type: 'point', fields: ['measure'] }, bind: 'legend' },
    ]);
    expect(layer.transform).toEqual([
      { calculate: "datum.label + ' | ' + datum.column + ' | ' + datum.value_text", as: 'aria' },
    ]);
    expect(pickedLayer('p', 'metric_label', 'row').transform[0].calculate).toContain(
      'datum.metric_label',
    );
  });

  it('fade what the legend leaves out, and carry the spoken row and the tooltip', () => {
    const marks = pickedMarks('pick', { field: 'row', title: 'System' });
    expect(marks.opacity).toEqual({ condition: { param: 'pick', value: 1 }, value: 0.15 });
    expect(marks.description).toEqual({ field: 'aria', type: 'nominal' });
    expect(marks.tooltip[0]).toEqual({ field: 'row', title: 'System', type: 'nominal' });
  });
});
