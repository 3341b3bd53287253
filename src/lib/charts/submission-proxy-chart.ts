// A loaded InMind submission's rank-based proxy beside Table 1's judged Target Recall: one bar
// per system, the submission's marked and labelled "proxy" on the chart and in its rows.
import type { TopLevelSpec } from 'vega-lite';
import { CHART_CONFIG } from './chart-kit.ts';
import * as kit from './chart-kit.ts';
import { PROXY_K, proxyShare, type SystemProxy } from '../userdata/submission-proxy.ts';

export const PAPER_SOURCE = 'InMind Table 1 (GPT-5-mini judge)';
export const PROXY_SOURCE = `your submission (proxy: target rank ≤ ${PROXY_K} in its context)`;

export interface ProxyChartRow {
  [key: string]: string | number;
  system: string;
  source: string;
  /** 'judged' for the paper's cells, 'proxy' for the submission's. */
  comparability: 'judged' | 'proxy';
  target_recall_pct: number;
  value_text: string;
  tasks: number | string;
}

export interface ReleasedTargetRecall {
  label: string;
  value: number;
  value_text: string;
}

const pct = (share: number) => Math.round(share * 1000) / 10;

/** Paper rows first, in the paper's order; then each submitted system, marked proxy. */
export function proxyChartRows(
  released: readonly ReleasedTargetRecall[],
  proxies: readonly SystemProxy[],
): ProxyChartRow[] {
  const paper = released.map((r): ProxyChartRow => ({
    system: r.label,
    source: PAPER_SOURCE,
    comparability: 'judged',
    target_recall_pct: r.value,
    value_text: `${r.value_text}%`,
    tasks: 125,
  }));
  const ours = proxies.map((p): ProxyChartRow => {
    const value = pct(proxyShare(p, p.hits[PROXY_K]));
    return {
      system: `${p.system} (proxy)`,
      source: PROXY_SOURCE,
      comparability: 'proxy',
      target_recall_pct: value,
      value_text: `${value.toFixed(1)}% (proxy, ${p.hits[PROXY_K]}/${p.tasks})`,
      tasks: p.tasks,
    };
  });
  return [...paper, ...ours];
}

export function submissionProxySpec(rows: readonly ProxyChartRow[]): TopLevelSpec {
  const systems = rows.map((r) => r.system);
  return {
    $schema: kit.VL_SCHEMA,
    description: `Target Recall (%): InMind Table 1's ${rows.filter((r) => r.comparability === 'judged').length} systems as the paper judges them, and your submission's ${rows.filter((r) => r.comparability === 'proxy').length} systems as a rank-based proxy.`,
    width: 'container',
    height: { step: 18 },
    autosize: { type: 'fit-x', contains: 'padding' },
    data: { values: rows },
    transform: [kit.ariaTransform('datum.system', 'datum.source', 'datum.value_text')],
    encoding: {
      y: {
        field: 'system',
        type: 'nominal',
        sort: systems,
        title: null,
        axis: { labelLimit: 260 },
      },
      x: {
        field: 'target_recall_pct',
        type: 'quantitative',
        title: 'Target Recall (%)',
        scale: { domain: [0, 100] },
      },
    },
    layer: [
      {
        mark: { type: 'bar', tooltip: true },
        encoding: {
          color: {
            field: 'source',
            type: 'nominal',
            scale: {
              domain: [PAPER_SOURCE, PROXY_SOURCE],
              range: [kit.OKABE_ITO.blue, kit.OKABE_ITO.vermillion],
            },
            legend: { title: null, orient: 'top', labelLimit: 400 },
          },
          description: kit.ARIA_ENCODING,
          tooltip: [
            { field: 'system', type: 'nominal', title: 'System' },
            { field: 'source', type: 'nominal', title: 'Source' },
            { field: 'value_text', type: 'nominal', title: 'Target Recall' },
            { field: 'comparability', type: 'nominal', title: 'Comparability' },
          ],
        },
      },
      {
        transform: [{ filter: "datum.comparability === 'proxy'" }],
        mark: {
          type: 'text',
          align: 'left',
          dx: 4,
          fontWeight: 'bold',
          color: '#333333',
          ...kit.DECORATION,
        },
        encoding: { text: { value: 'proxy' } },
      },
    ],
    config: CHART_CONFIG,
  };
}
